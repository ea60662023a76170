/**
 * The operators' content editor: news and announcements per language, deleting them, and the
 * news pictures.
 * The main row holds the English text (required: it is every other language's fallback); the
 * other languages are rows of news_texts / announcement_texts. Every write bumps the "news"
 * counter in the same batch, so readers' cached pages (content/pages.server) see it.
 */
import type { ServiceContext } from "~/context.server";
import type { LanguageCode } from "~/i18n/config";
import { bumpStatement, forgetVersions } from "~/services/cache.server";
import { FALLBACK_LANGUAGE, NEWS_CATEGORY } from "~/services/content/pages.server";
import { assertOperator } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload } from "~/services/uploads.server";
import type { Outcome } from "~/services/outcome";

export type ContentKind = "news" | "announcement";

const DOUBLE_SUBMIT_MS = 60_000;

export interface ContentText {
  title: string;
  desc: string;
  content: string;
}

/** The public address of a news picture (served by /news/image/:id, only for that purpose). */
export function newsImageUrl(uploadId: string) {
  return `/news/image/${uploadId}`;
}

/** Every news item or announcement for the console: English title, date, and the languages written. */
export async function adminContentList(ctx: ServiceContext, operator: SessionUser | null, kind: ContentKind) {
  assertOperator(operator);
  const sqlText =
    kind === "news"
      ? `SELECT n.id, n.title, n.logo, n.created_at AS createdAt, (SELECT group_concat(lang) FROM news_texts WHERE news_id = n.id) AS langs
           FROM news n ORDER BY n.created_at DESC, n.id DESC LIMIT 200`
      : `SELECT a.id, a.title, '' AS logo, a.created_at AS createdAt, (SELECT group_concat(lang) FROM announcement_texts WHERE announcement_id = a.id) AS langs
           FROM announcements a ORDER BY a.created_at DESC, a.id DESC LIMIT 200`;
  const rows = await ctx.d1.prepare(sqlText).all<{ id: number; title: string; logo: string; createdAt: number; langs: string | null }>();
  return rows.results.map((r) => ({
    id: r.id,
    title: r.title,
    logo: r.logo,
    createdAt: r.createdAt,
    languages: [FALLBACK_LANGUAGE, ...(r.langs ? r.langs.split(",").sort() : [])],
  }));
}

/** One item as the editor shows it in `lang`: that language's text (null when not written yet), the English title, the picture. */
export async function contentForEdit(ctx: ServiceContext, operator: SessionUser | null, kind: ContentKind, id: number, lang: LanguageCode) {
  assertOperator(operator);
  const main =
    kind === "news"
      ? await ctx.d1
          .prepare(`SELECT id, title, "desc" AS "desc", content, logo, created_at AS createdAt FROM news WHERE id = ?1`)
          .bind(id)
          .first<ContentText & { id: number; logo: string; createdAt: number }>()
      : await ctx.d1
          .prepare(`SELECT id, title, '' AS "desc", content, '' AS logo, created_at AS createdAt FROM announcements WHERE id = ?1`)
          .bind(id)
          .first<ContentText & { id: number; logo: string; createdAt: number }>();
  if (!main) return null;
  const texts =
    kind === "news"
      ? await ctx.d1
          .prepare(`SELECT lang, title, "desc" AS "desc", content FROM news_texts WHERE news_id = ?1`)
          .bind(id)
          .all<ContentText & { lang: string }>()
      : await ctx.d1
          .prepare(`SELECT lang, title, '' AS "desc", content FROM announcement_texts WHERE announcement_id = ?1`)
          .bind(id)
          .all<ContentText & { lang: string }>();
  const own = lang === FALLBACK_LANGUAGE ? main : (texts.results.find((t) => t.lang === lang) ?? null);
  return {
    id: main.id,
    englishTitle: main.title,
    logo: main.logo,
    createdAt: main.createdAt,
    text: own ? { title: own.title, desc: own.desc, content: own.content } : null,
    languages: [FALLBACK_LANGUAGE, ...texts.results.map((t) => t.lang)],
  };
}

/**
 * Writes one language's text of a news item or announcement (a new item: English first), and for
 * news optionally its picture (a stored news-image upload of this operator). One batch with the
 * cache counter's bump.
 */
export async function saveContent(
  ctx: ServiceContext,
  operator: SessionUser | null,
  kind: ContentKind,
  input: { id: number | null; lang: LanguageCode; text: ContentText; image: string | null },
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const { id, lang, text } = input;
  let logo: string | null = null;
  if (kind === "news" && input.image) {
    const upload = await ownedUpload(ctx, operator.id, input.image, "news_image");
    if (!upload) return { ok: false, errors: { image: "publish.image_invalid" }, status: 400 };
    logo = newsImageUrl(upload.id);
  }
  const bump = bumpStatement(ctx.d1, "news", now);
  if (id === null) {
    if (lang !== FALLBACK_LANGUAGE) return { ok: false, errors: { form: "publish.english_first" }, status: 400 };
    // A double-submitted form (the same title and body within a minute) makes one item: the second answers the first.
    const table = kind === "news" ? "news" : "announcements";
    const insert =
      kind === "news"
        ? ctx.d1
            .prepare(
              `INSERT INTO news (category_id, title, "desc", logo, content, created_at) SELECT ?1, ?2, ?3, ?4, ?5, ?6
                WHERE NOT EXISTS (SELECT 1 FROM news WHERE title = ?2 AND content = ?5 AND created_at > ?7) RETURNING id`,
            )
            .bind(NEWS_CATEGORY, text.title, text.desc, logo ?? "", text.content, now, now - DOUBLE_SUBMIT_MS)
        : ctx.d1
            .prepare(
              `INSERT INTO announcements (title, content, created_at) SELECT ?1, ?2, ?3
                WHERE NOT EXISTS (SELECT 1 FROM announcements WHERE title = ?1 AND content = ?2 AND created_at > ?4) RETURNING id`,
            )
            .bind(text.title, text.content, now, now - DOUBLE_SUBMIT_MS);
    const [inserted] = await ctx.d1.batch<{ id: number }>([insert, bump]);
    forgetVersions();
    const newId =
      inserted!.results[0]?.id ??
      (
        await ctx.d1
          .prepare(`SELECT id FROM ${table} WHERE title = ?1 AND content = ?2 ORDER BY id DESC LIMIT 1`)
          .bind(text.title, text.content)
          .first<{ id: number }>()
      )?.id;
    if (newId === undefined) return { ok: false, errors: { form: "errors.try_again" }, status: 409 };
    return { ok: true, value: { id: newId } };
  }
  const exists = await ctx.d1
    .prepare(kind === "news" ? "SELECT 1 AS x FROM news WHERE id = ?1" : "SELECT 1 AS x FROM announcements WHERE id = ?1")
    .bind(id)
    .first();
  if (!exists) return { ok: false, errors: { form: "errors.not_found" }, status: 404 };
  const statements: D1PreparedStatement[] = [];
  if (lang === FALLBACK_LANGUAGE) {
    statements.push(
      kind === "news"
        ? ctx.d1
            .prepare(`UPDATE news SET title = ?2, "desc" = ?3, content = ?4 WHERE id = ?1`)
            .bind(id, text.title, text.desc, text.content)
        : ctx.d1.prepare(`UPDATE announcements SET title = ?2, content = ?3 WHERE id = ?1`).bind(id, text.title, text.content),
    );
  } else {
    statements.push(
      kind === "news"
        ? ctx.d1
            .prepare(
              `INSERT INTO news_texts (news_id, lang, title, "desc", content, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
               ON CONFLICT (news_id, lang) DO UPDATE SET title = excluded.title, "desc" = excluded."desc", content = excluded.content, updated_at = excluded.updated_at`,
            )
            .bind(id, lang, text.title, text.desc, text.content, now)
        : ctx.d1
            .prepare(
              `INSERT INTO announcement_texts (announcement_id, lang, title, content, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
               ON CONFLICT (announcement_id, lang) DO UPDATE SET title = excluded.title, content = excluded.content, updated_at = excluded.updated_at`,
            )
            .bind(id, lang, text.title, text.content, now),
    );
  }
  if (logo !== null) statements.push(ctx.d1.prepare("UPDATE news SET logo = ?2 WHERE id = ?1").bind(id, logo));
  statements.push(bump);
  try {
    await ctx.d1.batch(statements);
  } catch (error) {
    // deleted meanwhile: the text's foreign key refuses it
    if (error instanceof Error && /FOREIGN KEY/i.test(error.message))
      return { ok: false, errors: { form: "errors.not_found" }, status: 404 };
    throw error;
  }
  forgetVersions();
  return { ok: true, value: { id } };
}

/** Deletes a news item or announcement with all its languages (false when it did not exist). */
export async function deleteContent(
  ctx: ServiceContext,
  operator: SessionUser | null,
  kind: ContentKind,
  id: number,
  now = Date.now(),
): Promise<boolean> {
  assertOperator(operator);
  const statements =
    kind === "news"
      ? [ctx.d1.prepare("DELETE FROM news_texts WHERE news_id = ?1").bind(id), ctx.d1.prepare("DELETE FROM news WHERE id = ?1").bind(id)]
      : [
          ctx.d1.prepare("DELETE FROM announcement_texts WHERE announcement_id = ?1").bind(id),
          ctx.d1.prepare("DELETE FROM announcements WHERE id = ?1").bind(id),
        ];
  const results = await ctx.d1.batch([...statements, bumpStatement(ctx.d1, "news", now)]);
  forgetVersions();
  return (results[1]?.meta.changes ?? 0) > 0;
}

/**
 * A news picture for everyone: only an upload of the news-image purpose, stored by an operator
 * and used by a news item; any other upload (identity documents, proofs) is null (a 404).
 */
export async function readNewsImage(ctx: ServiceContext, id: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) return null;
  const row = await ctx.d1
    .prepare(
      `SELECT u.r2_key AS key, u.content_type AS contentType, u.size FROM uploads u JOIN users o ON o.id = u.user_id AND o.role = 'operator'
        WHERE u.id = ?1 AND u.status = 1 AND u.purpose = 'news_image' AND EXISTS (SELECT 1 FROM news WHERE logo = ?2)`,
    )
    .bind(id, newsImageUrl(id))
    .first<{ key: string; contentType: string; size: number }>();
  if (!row) return null;
  const object = await ctx.env.UPLOADS.get(row.key);
  return object ? { body: object.body, contentType: row.contentType, size: row.size } : null;
}
