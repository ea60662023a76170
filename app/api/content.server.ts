/**
 * JSON calls of the content screens (spec §7): news list and item, and the company e-mail.
 * News bodies are answered as plain text (paragraphs separated by a blank line), never markup,
 * so no client can be made to render stored HTML.
 */
import { textParagraphs } from "~/domain/content";
import { NewsItemQuerySchema, NewsListQuerySchema } from "~/forms/content";
import { companyEmail, newsItem, newsPage, NEWS_CATEGORY, type NewsItem } from "~/services/content/pages.server";
import { failure, ok, parsed, query, type Routes } from "./common.server";

function item(n: NewsItem) {
  return {
    id: n.id,
    category_id: n.category_id,
    title: n.title,
    desc: n.desc,
    logo: n.logo,
    content: textParagraphs(n.content).join("\n\n"),
    created_at: n.created_at,
  };
}

export const contentRoutes: Routes = {
  "/api/news/list": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, NewsListQuerySchema, query(request));
      if (input instanceof Response) return input;
      const categoryId = input.categoryId === undefined ? NEWS_CATEGORY : input.categoryId;
      if (categoryId === null) return failure(ctx, { category_id: "errors.not_found" }, 404);
      const list = await newsPage(ctx, { page: input.page, categoryId });
      return ok(ctx, { data: list.data.map(item), total: list.total, current_page: list.page, last_page: list.last_page });
    },
  },
  "/api/news/info": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, NewsItemQuerySchema, query(request));
      if (input instanceof Response) return input;
      const { id } = input;
      const found = id === null ? null : await newsItem(ctx, id);
      return found ? ok(ctx, item(found)) : failure(ctx, { id: "errors.not_found" }, 404);
    },
  },
  "/api/company/getCompanyEmail": { GET: async (_r, ctx) => ok(ctx, { email: await companyEmail(ctx) }) },
};
