/**
 * Feedback (spec §2 /feedback): a signed-in user writes a message (required, at most 1,000
 * characters) with an optional contact; it is stored for the operators (/admin/feedback). Five
 * messages an hour per user, the slot reserved before the message is stored. The user's own
 * messages are listed below; ?id opens one of them (someone else's or a missing one: 404).
 * Visitors are sent to /login?from=/feedback.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate, TextBody } from "~/components/content";
import { Field, FormErrors, TextAreaField } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { FEEDBACK_CONTACT_MAX, FEEDBACK_MAX, FeedbackStatus, parseId, textParagraphs } from "~/domain/content";
import { FeedbackSchema } from "~/forms/content";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { myFeedback, myFeedbackItem, sendFeedback } from "~/services/content/feedback.server";
import { redirectWithFlash, requireUser } from "~/services/web.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "content", "deposit", "feedback", "publish", "wallet"] };

export const meta = titled("feedback.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const raw = new URL(request.url).searchParams.get("id");
  if (raw !== null) {
    const id = parseId(raw);
    const item = id === null ? null : await myFeedbackItem(context, user.id, id);
    if (!item) throw new Response("Not found", { status: 404 });
    return { item: { ...item, paragraphs: textParagraphs(item.content) }, items: [] };
  }
  const items = await myFeedback(context, user.id);
  return {
    item: null,
    items: items.map((f) => ({ id: f.id, status: f.status, createdAt: f.createdAt, preview: f.content.slice(0, 120) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request);
  const submission = submissionOf(FeedbackSchema, form);
  if (form.get("intent") !== Intent.SendFeedback)
    return data({ result: replyWithErrors(submission, { form: "errors.bad_request" }) }, { status: 400 });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const sent = await sendFeedback(context, user, { content: submission.value.content, contact: submission.value.contact ?? "" });
  if (!sent.ok) return data({ result: replyWithErrors(submission, sent.errors) }, { status: sent.status });
  return redirectWithFlash(context, "/feedback", { kind: "success", message: "feedback.sent" });
}

function StatusText({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <span className={status === FeedbackStatus.Read ? "badge" : "badge muted"}>
      {status === FeedbackStatus.Read ? t("feedback.status_read") : t("feedback.status_new")}
    </span>
  );
}

export default function Feedback() {
  const { t } = useTranslation();
  const { item, items } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const location = useLocation();
  if (item)
    return (
      <div className="page narrow content-page">
        <PageHeader title={t("feedback.title")} back="/feedback" />
        <article className="card">
          <p className="record-head">
            <PublishedDate ms={item.createdAt} locale={locale} />
            <StatusText status={item.status} />
          </p>
          <TextBody paragraphs={item.paragraphs} />
          {item.contact ? (
            <p className="muted small">
              {t("feedback.contact")}: {item.contact}
            </p>
          ) : null}
        </article>
      </div>
    );
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("feedback.title")} back="/user" />
      {/* a new form after each successful send (a redirect here): the sent text does not stay in the field */}
      <FeedbackForm key={location.key} />
      <section className="stack" aria-labelledby="my-feedback">
        <h2 id="my-feedback" className="section-title">
          {t("feedback.mine")}
        </h2>
        {items.length === 0 ? (
          <EmptyState title={t("feedback.none")} />
        ) : (
          <ul className="record-list">
            {items.map((f) => (
              <li key={f.id} className="card record">
                <Link to={`/feedback?id=${f.id}`} className="record-head">
                  <span>{f.preview}</span>
                </Link>
                <p className="muted small record-head">
                  <PublishedDate ms={f.createdAt} locale={locale} />
                  <StatusText status={f.status} />
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function FeedbackForm() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "feedback", lastResult: actionData?.result, shouldRevalidate: "onBlur" });
  return (
    <Form method="post" className="form card" {...getFormProps(form)} noValidate={false}>
      <p className="muted">{t("feedback.intro")}</p>
      <FormErrors form={form} />
      <TextAreaField
        field={fields.content}
        label={t("feedback.message")}
        hint={t("feedback.message_hint", { max: FEEDBACK_MAX })}
        rows={6}
        maxLength={FEEDBACK_MAX}
        required
      />
      <Field
        field={fields.contact}
        label={t("feedback.contact")}
        maxLength={FEEDBACK_CONTACT_MAX}
        autoComplete="email"
        hint={t("feedback.contact_hint")}
      />
      <SubmitButton intent={Intent.SendFeedback}>{t("feedback.send")}</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
