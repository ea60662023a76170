/** Users' feedback for operators: new messages first, each with who wrote it; mark one read (a plain form). */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate, TextBody } from "~/components/content";
import { ItemAction } from "~/components/admin";
import { EmptyState } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { FeedbackStatus, textParagraphs } from "~/domain/content";
import { Intent } from "~/forms/intents";
import { itemActionSchema } from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { adminFeedback, markFeedbackRead } from "~/services/content/feedback.server";
import { requireOperator } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "content", "deposit", "feedback", "settings", "wallet"] };

export const meta = titled("feedback.admin_title", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const rows = await adminFeedback(context, operator);
  return {
    items: rows.map((f) => ({
      id: f.id,
      uid: f.uid,
      email: f.email,
      contact: f.contact,
      status: f.status,
      createdAt: f.createdAt,
      paragraphs: textParagraphs(f.content),
    })),
  };
}

const MarkReadSchema = itemActionSchema(Intent.MarkRead);

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(MarkReadSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "errors.bad_request" }, { status: 400 });
  const done = await markFeedbackRead(context, operator, parsed.value.id);
  return redirectWithFlash(
    context,
    "/admin/feedback",
    done ? { kind: "success", message: "feedback.marked_read" } : { kind: "error", message: "errors.not_found" },
  );
}

export default function AdminFeedback() {
  const { t } = useTranslation();
  const { items } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <section className="stack" aria-labelledby="feedback-title">
      <h2 id="feedback-title" className="section-title">
        {t("feedback.admin_title")}
      </h2>
      {items.length === 0 ? <EmptyState title={t("feedback.admin_none")} /> : null}
      <ul className="record-list">
        {items.map((f) => (
          <li key={f.id} className="card record" aria-labelledby={`feedback-${f.id}`}>
            <p className="record-head" id={`feedback-${f.id}`}>
              <span>
                <span className="num">{f.uid}</span> · {f.email ?? "—"}
              </span>
              <PublishedDate ms={f.createdAt} locale={locale} />
            </p>
            <TextBody paragraphs={f.paragraphs} />
            {f.contact ? (
              <p className="muted small">
                {t("feedback.contact")}: {f.contact}
              </p>
            ) : null}
            {f.status === FeedbackStatus.New ? (
              <ItemAction id={f.id} intent={Intent.MarkRead} label={t("feedback.mark_read")} />
            ) : (
              <p className="muted small">{t("feedback.status_read")}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
