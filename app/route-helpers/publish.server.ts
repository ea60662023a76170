/**
 * Loaders and actions of the operator's content pages (/admin/news, /admin/announcements and
 * their editors), one implementation for both kinds. Every one starts with requireOperator
 * (anyone else: 404).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { AppContext } from "~/context.server";
import { parseId } from "~/domain/content";
import { AnnouncementTextSchema, NewsTextSchema } from "~/forms/content";
import { Intent } from "~/forms/intents";
import { submissionOf, type FieldErrors } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { normalizeLanguage, type LanguageCode } from "~/i18n/config";
import { readForm } from "~/lib/http.server";
import { adminContentList, contentForEdit, deleteContent, saveContent, type ContentKind } from "~/services/content/editor.server";
import { FALLBACK_LANGUAGE } from "~/services/content/pages.server";
import { requireOperator } from "~/services/operator.server";
import { ownedUpload, readFormWithUploads, uploadFieldError, uploadIdOf, uploadUrl } from "~/services/uploads.server";
import { redirectWithFlash } from "~/services/web.server";

export function listPath(kind: ContentKind) {
  return kind === "news" ? "/admin/news" : "/admin/announcements";
}

export function editPath(kind: ContentKind, id: number | null, lang: LanguageCode, confirm = false) {
  const q = new URLSearchParams();
  if (id !== null) q.set("id", String(id));
  q.set("lang", lang);
  if (confirm) q.set("confirm", "delete");
  return `${listPath(kind)}/edit?${q}`;
}

function notFound(): never {
  throw new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
}

export function listLoader(kind: ContentKind) {
  return async ({ context }: LoaderFunctionArgs) => {
    const operator = await requireOperator(context);
    return { kind, items: await adminContentList(context, operator, kind) };
  };
}

/** The editor's query: ?id (none: a new item, English first) & lang & confirm=delete. */
function target(request: Request) {
  const q = new URL(request.url).searchParams;
  const rawId = q.get("id");
  const id = rawId === null || rawId === "" ? null : parseId(rawId);
  if (rawId && id === null) notFound();
  const lang = q.has("lang") ? normalizeLanguage(q.get("lang")) : FALLBACK_LANGUAGE;
  if (!lang) notFound();
  return { id, lang, confirm: q.get("confirm") === "delete" };
}

export function editorLoader(kind: ContentKind) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const operator = await requireOperator(context);
    const { id, lang, confirm } = target(request);
    if (id === null) {
      // a new item starts with its English text
      if (lang !== FALLBACK_LANGUAGE)
        throw new Response(null, { status: 302, headers: { location: editPath(kind, null, FALLBACK_LANGUAGE) } });
      return { kind, id, lang, confirm: false, item: null };
    }
    const item = await contentForEdit(context, operator, kind, id, lang);
    if (!item) notFound();
    return { kind, id, lang, confirm, item };
  };
}

async function readEditorForm(
  context: AppContext,
  request: Request,
  kind: ContentKind,
  operatorId: number,
): Promise<{ form: URLSearchParams; refused: FieldErrors }> {
  const refused: FieldErrors = {};
  if (kind !== "news") return { form: await readForm(request), refused };
  const form = await readFormWithUploads(context, request, operatorId, { image: "news_image" });
  // A newly chosen file comes before a picture uploaded ahead (JavaScript): the first value there counts.
  const image = form.getAll("image").find(Boolean) ?? "";
  const problem = uploadFieldError(image);
  if (problem) refused.image = problem;
  form.set("image", problem ? "" : image);
  return { form, refused };
}

/** A picture uploaded with a refused form: shown again and posted again, so the operator need not choose it anew. */
async function keptImage(context: AppContext, operatorId: number, kind: ContentKind, form: URLSearchParams) {
  if (kind !== "news") return null;
  const upload = await ownedUpload(context, operatorId, uploadIdOf(form.get("image")), "news_image");
  return upload ? { id: upload.id, url: uploadUrl(upload.id) } : null;
}

export function editorAction(kind: ContentKind) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const operator = await requireOperator(context);
    const { id, lang } = target(request);
    const { form, refused } = await readEditorForm(context, request, kind, operator.id);
    switch (form.get("intent")) {
      case Intent.SaveContent: {
        const submission = kind === "news" ? submissionOf(NewsTextSchema, form) : submissionOf(AnnouncementTextSchema, form);
        if (submission.status !== "success" || Object.keys(refused).length > 0) {
          return data(
            { result: replyWithErrors(submission, refused), kept: await keptImage(context, operator.id, kind, form) },
            { status: 400 },
          );
        }
        const value = submission.value as { title: string; desc?: string; content: string; image?: string };
        const saved = await saveContent(context, operator, kind, {
          id,
          lang,
          text: { title: value.title, desc: value.desc ?? "", content: value.content },
          image: value.image ? (uploadIdOf(value.image) ?? "!") : null,
        });
        if (!saved.ok) {
          if (saved.status === 404) return redirectWithFlash(context, listPath(kind), { kind: "error", message: "errors.not_found" });
          return data(
            { result: replyWithErrors(submission, saved.errors), kept: await keptImage(context, operator.id, kind, form) },
            { status: saved.status },
          );
        }
        return redirectWithFlash(context, editPath(kind, saved.value.id, lang), { kind: "success", message: "publish.saved" });
      }
      case Intent.DeleteContent: {
        if (id === null) notFound();
        const deleted = await deleteContent(context, operator, kind, id);
        return redirectWithFlash(
          context,
          listPath(kind),
          deleted ? { kind: "success", message: "publish.deleted" } : { kind: "error", message: "errors.not_found" },
        );
      }
      default:
        return data({ result: { status: "error" as const, error: { "": ["errors.bad_request"] } } }, { status: 400 });
    }
  };
}
