/**
 * Forms of the content screens: an operator's news item or announcement in one language, and a
 * user's feedback. Bodies are plain text (shown as paragraphs, never as markup).
 */
import * as v from "valibot";
import { BODY_MAX, FEEDBACK_CONTACT_MAX, FEEDBACK_MAX, parseId, parsePage, SUMMARY_MAX } from "~/domain/content";
import { MAX_TEXT, printable } from "~/forms/fields";

/** Line breaks are allowed in bodies; other control characters are not. */
const multiline = v.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/u, "errors.invalid_characters");

const title = v.pipe(
  v.string("publish.title_required"),
  v.trim(),
  v.nonEmpty("publish.title_required"),
  v.maxLength(MAX_TEXT, "errors.too_long"),
  printable,
);
const body = v.pipe(
  v.string("publish.body_required"),
  v.trim(),
  v.nonEmpty("publish.body_required"),
  v.maxLength(BODY_MAX, "errors.too_long"),
  multiline,
);

export const NewsTextSchema = v.object({
  title,
  desc: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(SUMMARY_MAX, "errors.too_long"), printable)),
  content: body,
  image: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "publish.image_invalid"), printable)),
});

export const AnnouncementTextSchema = v.object({ title, content: body });

export const FeedbackSchema = v.object({
  content: v.pipe(
    v.string("feedback.content_required"),
    v.trim(),
    v.nonEmpty("feedback.content_required"),
    v.maxLength(FEEDBACK_MAX, "feedback.too_long"),
    multiline,
  ),
  contact: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FEEDBACK_CONTACT_MAX, "errors.too_long"), printable)),
});

/** GET /api/news/list (spec §7: category_id, page): the news category when none is asked (`null`: no such id, "not found"). */
export const NewsListQuerySchema = v.pipe(
  v.object({ category_id: v.optional(v.string()), page: v.optional(v.string()) }),
  v.transform(({ category_id, page }) => ({
    categoryId: category_id === undefined ? undefined : parseId(category_id),
    page: parsePage(page),
  })),
);

/** GET /api/news/info?id=… (`null`: missing or malformed, "not found"). */
export const NewsItemQuerySchema = v.pipe(
  v.object({ id: v.optional(v.string()) }),
  v.transform(({ id }) => ({ id: parseId(id) })),
);
