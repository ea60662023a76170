/**
 * Applying to become a trader (spec §2 Apply, §5; issue 11 §1): the application documents, the
 * contact prompt, the agreement checkbox and the submit button (disabled until ticked once
 * JavaScript runs; without it the server refuses an unticked form with the reason next to the
 * box). An application waits for an operator's review; the page shows its status, and a rejected
 * applicant sees the reason and may apply again. Traders go to their followers.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { FollowTabs } from "~/components/copy";
import { FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { PageHeader } from "~/components/layout";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { ApplicationStatus } from "~/domain/copy";
import { ApplySchema } from "~/forms/copy";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { applicationOf, isTrader } from "~/services/copy/queries.server";
import { applyTrader } from "~/services/copy/traders.server";
import { redirectWithFlash, requireUser } from "~/services/web.server";
import copyStylesHref from "~/styles/copy.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "orders", "trade"] };

export const meta = titled("copy.apply_title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: copyStylesHref }];

/** The application documents (spec: a static list, in English). */
const DOCUMENTS = ["copy.doc_1", "copy.doc_2", "copy.doc_3", "copy.doc_4"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  if (await isTrader(context, user.id)) throw redirect("/follow/my-follower");
  const application = await applicationOf(context, user.id);
  return { application, isDemo: user.isDemo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request);
  if (form.get("intent") !== Intent.ApplyTrader)
    return data({ result: { status: "error" as const, error: { "": ["errors.bad_request"] } } }, { status: 400 });
  const submission = submissionOf(ApplySchema, form);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await applyTrader(context, user, submission.value);
  // applying twice (another tab, a double submit): the form is gone behind the status; the message comes as a notice
  const twice = !result.ok ? result.errors.form : undefined;
  if (twice === "copy.already_waiting" || twice === "copy.already_trader")
    return redirectWithFlash(context, "/follow/trader-apply", { kind: "error", message: twice });
  if (!result.ok) return data({ result: replyWithErrors(submission, result.errors) }, { status: result.status });
  return redirectWithFlash(context, "/follow/trader-apply", { kind: "success", message: "copy.applied" });
}

export default function TraderApply() {
  const { t } = useTranslation();
  const { application } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const waiting = application?.status === ApplicationStatus.Waiting;
  return (
    <div className="page narrow">
      <PageHeader title={t("copy.apply_title")} />
      <FollowTabs isTrader={false} />
      {application ? (
        <section className={`card application-status status-${application.status}`} aria-labelledby="application-status">
          <h2 id="application-status">{t("copy.application")}</h2>
          <p role="status">
            {waiting
              ? t("copy.status_waiting")
              : application.status === ApplicationStatus.Rejected
                ? t("copy.status_rejected", { reason: application.reason })
                : t("copy.status_approved")}
          </p>
          <p className="muted small">
            {t("copy.applied_at")} <OrderTime ms={application.createdAt} locale={locale} />
          </p>
          {application.status === ApplicationStatus.Rejected ? <p className="muted small">{t("copy.apply_again")}</p> : null}
        </section>
      ) : null}
      <section className="card" aria-labelledby="apply-docs">
        <h2 id="apply-docs">{t("copy.docs_title")}</h2>
        <ol className="apply-docs">
          {DOCUMENTS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ol>
        <p className="muted">
          {t("copy.contact")}{" "}
          <Link to="/mine/chat" reloadDocument>
            {t("copy.contact_link")}
          </Link>
        </p>
      </section>
      {waiting ? null : <ApplyForm />}
    </div>
  );
}

function ApplyForm() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [agreed, setAgreed] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  // a box ticked before the page's JavaScript ran counts
  useEffect(() => setAgreed(box.current?.checked ?? false), []);
  const [form, fields] = useForm({ id: "apply-trader", lastResult: actionData?.result });
  const error = fields.agree.errors?.[0];
  return (
    <Form method="post" className="form card" {...getFormProps(form)}>
      <FormErrors form={form} />
      <div className="field">
        <label className="check-label">
          <input
            ref={box}
            type="checkbox"
            name="agree"
            onChange={(e) => setAgreed(e.currentTarget.checked)}
            aria-describedby={error ? "agree-error" : undefined}
            aria-invalid={error ? true : undefined}
          />
          {t("copy.agree_label")}
        </label>
        {error ? (
          <p className="field-error" id="agree-error">
            {translateMessage(t, error)}
          </p>
        ) : null}
      </div>
      <SubmitButton intent={Intent.ApplyTrader} disabled={hydrated && !agreed}>
        {t("copy.apply_submit")}
      </SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
