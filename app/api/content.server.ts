/**
 * JSON calls of the content screens (spec §7): news list and item, and the company e-mail.
 * News bodies are answered as plain text (paragraphs separated by a blank line), never markup,
 * so no client can be made to render stored HTML.
 */
import { parseId, parsePage, textParagraphs } from "~/domain/content";
import { companyEmail, newsItem, newsPage, NEWS_CATEGORY, type NewsItem } from "~/services/content.server";
import { failure, ok, query, type Routes } from "./common.server";

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
      const q = query(request);
      const rawCategory = q.get("category_id");
      const categoryId = rawCategory ? parseId(rawCategory) : NEWS_CATEGORY;
      if (categoryId === null) return failure(ctx, { category_id: "errors.not_found" }, 404);
      const list = await newsPage(ctx, { page: parsePage(q.get("page")), categoryId });
      return ok(ctx, { data: list.data.map(item), total: list.total, current_page: list.page, last_page: list.last_page });
    },
  },
  "/api/news/info": {
    GET: async (request, ctx) => {
      const id = parseId(query(request).get("id"));
      const found = id === null ? null : await newsItem(ctx, id);
      return found ? ok(ctx, item(found)) : failure(ctx, { id: "errors.not_found" }, 404);
    },
  },
  "/api/company/getCompanyEmail": { GET: async (_r, ctx) => ok(ctx, { email: await companyEmail(ctx) }) },
};
