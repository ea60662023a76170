/**
 * Content for readers: news (paged, category 1 by default), one news item and announcements in the
 * reader's language (the operator's text in that language, else the English text on the main
 * row), the company e-mail and the support-chat target.
 *
 * Reads of news and announcements go through the versioned memory cache (cache.server): every
 * edit bumps the "news" counter in its own batch, so the next request sees it (see the cache's
 * staleness bound).
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { announcements, announcementTexts, news, newsTexts } from "~/db/schema";
import { chatButtonOf, chatTarget, isShownEmail, plainSummary, type ChatButton, type ChatTarget, type ChatUser } from "~/domain/content";
import type { LanguageCode } from "~/i18n/config";
import { basicInfo, companyInfo } from "~/services/account.server";
import { cached } from "~/services/cache.server";
import { upstreamNewsItem, upstreamNewsPage } from "~/services/upstream/market.server";

/** The language whose text is on the main rows (news, announcements): every other language falls back to it. */
export const FALLBACK_LANGUAGE: LanguageCode = "en";

export const NEWS_PAGE_SIZE = 10;

/**
 * Headers of public news pages: a visitor's browser may keep its copy for a minute; the Worker
 * makes signed-in responses private, no-store. Not `public`: each HTML page carries its own CSP
 * nonce, which a shared cache would hand to every visitor.
 */
export const PUBLIC_CACHE = { "Cache-Control": "private, max-age=60", Vary: "Cookie, Accept-Language" };
export const NEWS_CATEGORY = 1;

export interface NewsItem {
  id: number;
  category_id: number;
  title: string;
  desc: string;
  logo: string;
  /** The stored body: plain text or a small markup subset. Pages render it with textParagraphs. */
  content: string;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** The columns of a news item in `lang`: its text in that language where the operator wrote one, else the English text. */
function newsColumnsIn() {
  return {
    id: news.id,
    category_id: news.categoryId,
    title: sql<string>`coalesce(${newsTexts.title}, ${news.title})`,
    desc: sql<string>`coalesce(${newsTexts.desc}, ${news.desc})`,
    logo: news.logo,
    content: sql<string>`coalesce(${newsTexts.content}, ${news.content})`,
    created_at: news.createdAt,
  };
}

/** The join of a language's texts (none for English: the main row is the English text). */
function newsTextsOn(lang: LanguageCode) {
  return and(eq(newsTexts.newsId, news.id), eq(newsTexts.lang, lang));
}

/** Only same-site pictures are shown (the CSP allows images from this origin alone). */
function safeLogo(logo: string): string {
  return /^\/(?![/\\])[A-Za-z0-9._~/-]*$/.test(logo) ? logo : "";
}

function shape(row: NewsItem): NewsItem {
  return { ...row, logo: safeLogo(row.logo), desc: row.desc.trim() ? plainSummary(row.desc, 300) : plainSummary(row.content) };
}

/** One page of news, newest first, with the spec's paging figures (total and last_page). */
export async function newsPage(ctx: ServiceContext, options: { page: number; categoryId?: number; pageSize?: number }) {
  const categoryId = options.categoryId ?? NEWS_CATEGORY;
  const pageSize = options.pageSize ?? NEWS_PAGE_SIZE;
  if (ctx.config.platform.kind === "upstream") {
    // the backend's news through the D1 cache (ADR 024); its page size is its own
    const list = await upstreamNewsPage(ctx, categoryId, options.page);
    return {
      data: (list?.data ?? []).map(shape),
      total: list?.total ?? 0,
      page: options.page,
      last_page: Math.max(1, list?.last_page ?? 1),
    };
  }
  return cached(ctx, "news", `list:${ctx.lang}:${categoryId}:${options.page}:${pageSize}`, () =>
    loadNewsPage(ctx, { page: options.page, categoryId, pageSize }),
  );
}

async function loadNewsPage(ctx: ServiceContext, options: { page: number; categoryId: number; pageSize: number }) {
  const { categoryId, pageSize } = options;
  const [rows, [totals]] = await Promise.all([
    ctx.db
      .select(newsColumnsIn())
      .from(news)
      .leftJoin(newsTexts, newsTextsOn(ctx.lang))
      .where(eq(news.categoryId, categoryId))
      .orderBy(desc(news.createdAt), desc(news.id))
      .limit(pageSize)
      .offset((options.page - 1) * pageSize),
    ctx.db.select({ total: count() }).from(news).where(eq(news.categoryId, categoryId)),
  ]);
  const total = totals?.total ?? 0;
  return { data: rows.map(shape), total, page: options.page, last_page: Math.max(1, Math.ceil(total / pageSize)) };
}

export async function newsItem(ctx: ServiceContext, id: number): Promise<NewsItem | null> {
  if (ctx.config.platform.kind === "upstream") {
    const item = await upstreamNewsItem(ctx, id);
    return item ? shape(item) : null;
  }
  return cached(ctx, "news", `item:${ctx.lang}:${id}`, async () => {
    const [row] = await ctx.db.select(newsColumnsIn()).from(news).leftJoin(newsTexts, newsTextsOn(ctx.lang)).where(eq(news.id, id));
    return row ? shape(row) : null;
  });
}

export async function announcementList(ctx: ServiceContext) {
  return cached(ctx, "news", `announcements:${ctx.lang}`, () =>
    ctx.db
      .select({
        id: announcements.id,
        title: sql<string>`coalesce(${announcementTexts.title}, ${announcements.title})`,
        content: sql<string>`coalesce(${announcementTexts.content}, ${announcements.content})`,
        created_at: announcements.createdAt,
      })
      .from(announcements)
      .leftJoin(announcementTexts, and(eq(announcementTexts.announcementId, announcements.id), eq(announcementTexts.lang, ctx.lang)))
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(100),
  );
}

/** The main company's contact e-mail ("" when none is set or it does not look like an address). */
export async function companyEmail(ctx: ServiceContext): Promise<string> {
  const email = (await companyInfo(ctx))?.email.trim() ?? "";
  return isShownEmail(email) ? email : "";
}

/** Where the customer-service button leads for this user (or visitor): see chatTarget. */
export async function supportChat(ctx: ServiceContext, user: ChatUser | null): Promise<ChatTarget> {
  return chatTarget(await basicInfo(ctx), user);
}

/** What a page's chat buttons need (home header and shortcut, user centre row). */
export async function supportChatButton(ctx: ServiceContext, user: ChatUser | null): Promise<ChatButton> {
  return chatButtonOf(await supportChat(ctx, user));
}
