/**
 * The operator's real-name queue (issue 10 §4, §6): requests waiting for audit, oldest first,
 * each with the user, the name, the full card number and both photos; approve, or reject with a
 * reason the user will see. Each decision is recorded once (operator and time) and listed under
 * "Decided". Plain forms: works without JavaScript. Anyone but an operator gets 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PrivateImage } from "~/components/admin";
import { DecisionEntry, DecisionHistory } from "~/components/decision-history";
import { OrderTime } from "~/components/orders";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { RouteErrorBoundary } from "~/components/route-error";
import { IdentityDecisionSchema, identityRequestKey as requestKey } from "~/forms/operator";
import { submissionOf } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { decideIdentity, identityQueue } from "~/services/identity.server";
import { requireOperator } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import identityStylesHref from "~/styles/identity.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "identity", "orders", "settings", "trade"] };

export const meta = titled("admin.identity", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: identityStylesHref }];

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  return identityQueue(context, operator);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const submission = submissionOf(IdentityDecisionSchema, await readForm(request));
  // the request's key as posted: a refusal is shown on the item it came from
  const key = typeof submission.payload.id === "string" ? submission.payload.id : "";
  if (submission.status !== "success") return data({ id: key, error: "errors.bad_request" }, { status: 400 });
  const { decision } = submission.value;
  const result = await decideIdentity(context, operator, submission.value);
  if (!result.ok) {
    const error = result.errors.reason ?? result.errors.form ?? "errors.try_again";
    // A request decided meanwhile (or gone) leaves the queue: show the fresh one with the reason.
    if (!result.errors.reason) return redirectWithFlash(context, "/admin/identity", { kind: "error", message: error });
    return data({ id: key, error }, { status: result.status });
  }
  return redirectWithFlash(context, "/admin/identity", {
    kind: "success",
    message: decision === "approve" ? "admin.approved" : "admin.rejected",
  });
}

export default function AdminIdentity() {
  const { t } = useTranslation();
  const { pending, decided } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <>
      <ReviewQueue id="identity-pending" title={t("admin.pending")} count={pending.length}>
        {pending.map((r) => {
          const key = requestKey(r.userId, r.submission);
          return (
            <ReviewItem key={key} id={`identity-${key}`} heading={r.name}>
              <dl className="details">
                <div>
                  <dt>{t("admin.user")}</dt>
                  <dd>
                    <span className="num">{r.uid}</span> · {r.email ?? r.mobile ?? ""}
                  </dd>
                </div>
                <div>
                  <dt>{t("identity.card_id")}</dt>
                  <dd className="num">{r.cardId}</dd>
                </div>
                <div>
                  <dt>{t("identity.submitted_at")}</dt>
                  <dd>
                    <OrderTime ms={r.submittedAt} locale={locale} />
                    {r.submission > 1 ? ` · ${t("identity.submission", { n: r.submission })}` : null}
                  </dd>
                </div>
              </dl>
              <div className="identity-photos">
                <figure>
                  <PrivateImage uploadId={r.frontUploadId} alt={t("identity.front_of", { name: r.name })} />
                  <figcaption>{t("identity.front_pic")}</figcaption>
                </figure>
                <figure>
                  <PrivateImage uploadId={r.reverseUploadId} alt={t("identity.reverse_of", { name: r.name })} />
                  <figcaption>{t("identity.reverse_pic")}</figcaption>
                </figure>
              </div>
              <ReviewForm id={key} error={actionData?.id === key ? actionData.error : null} />
            </ReviewItem>
          );
        })}
      </ReviewQueue>
      <DecisionHistory id="identity-decided" count={decided.length} empty={t("identity.none_decided")}>
        {decided.map((d) => (
          <DecisionEntry key={d.id} d={d} labels={[t("identity.status_certified"), t("identity.status_rejected")]} locale={locale}>
            <span className="num">{d.uid ?? d.userId}</span> {d.email ?? ""}
            {d.submission > 1 ? ` · ${t("identity.submission", { n: d.submission })}` : null}
          </DecisionEntry>
        ))}
      </DecisionHistory>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
