/**
 * The operator's copy-trading page (issue 11 §4): trader applications waiting (approve, or reject
 * with a reason the applicant sees; each decided once, recorded with the operator and time), and
 * the traders (profit share 0–50 %, suspend with a reason the followers see, resume). No money
 * moves here, so no step-up is asked. Plain forms: works without JavaScript. Anyone but an
 * operator gets 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { DecisionEntry, DecisionHistory } from "~/components/decision-history";
import { PlainField, SubmitButton } from "~/components/forms";
import { EmptyState } from "~/components/layout";
import { OrderTime } from "~/components/orders";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { RouteErrorBoundary } from "~/components/route-error";
import { shareDecimalToPercent } from "~/domain/copy";
import { ProfitShareSchema, ReviewSchema, TraderStatusSchema, operatorFieldsOf } from "~/forms/copy";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { applicationQueue, reviewApplication, setProfitShare, setTraderStatus, traderAdminList } from "~/services/copy/operator.server";
import { fail } from "~/services/outcome";
import { requireOperator } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import identityStylesHref from "~/styles/identity.css";
import copyStylesHref from "~/styles/copy.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "identity", "orders", "trade"] };

export const meta = titled("copy.admin_traders", { console: true });

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: identityStylesHref },
  { rel: "stylesheet", href: copyStylesHref },
];

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const [queue, traders] = await Promise.all([applicationQueue(context, operator), traderAdminList(context, operator)]);
  return { ...queue, traders };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const fields = operatorFieldsOf(form);
  /** Where a refusal shows: the row the form named. */
  const key = fields.id ?? "";
  const badRequest = () => data({ id: key, error: "errors.bad_request" }, { status: 400 });
  const back = (message: string) => redirectWithFlash(context, "/admin/traders", { kind: "success", message });
  switch (intent) {
    case Intent.Approve:
    case Intent.Reject: {
      const command = parseFields(ReviewSchema, fields);
      if (!command.ok) return badRequest();
      const decision = intent === Intent.Approve ? "approve" : "reject";
      const result = await reviewApplication(context, operator, { ...command.value, decision });
      if (!result.ok) {
        const error = result.errors.reason ?? result.errors.form ?? "errors.try_again";
        if (!result.errors.reason) return redirectWithFlash(context, "/admin/traders", { kind: "error", message: error });
        return data({ id: key, error }, { status: result.status });
      }
      return back(decision === "approve" ? "admin.approved" : "admin.rejected");
    }
    case Intent.Suspend:
    case Intent.Resume: {
      const command = parseFields(TraderStatusSchema, fields);
      if (!command.ok) return badRequest();
      const suspend = intent === Intent.Suspend;
      const result = await setTraderStatus(context, operator, { ...command.value, suspend });
      if (!result.ok)
        return data({ id: `t${key}`, error: result.errors.reason ?? result.errors.form ?? "errors.try_again" }, { status: result.status });
      return back(suspend ? "copy.admin_suspended_done" : "copy.admin_resumed_done");
    }
    case Intent.ProfitShare: {
      const command = parseFields(ProfitShareSchema, fields);
      if (!command.ok && command.errors.id) return badRequest();
      const result = command.ok ? await setProfitShare(context, operator, command.value) : fail(command.errors);
      // refused: the typed share comes back with the message under its field
      const typed = (fields.profit_share ?? "").slice(0, 20);
      if (!result.ok)
        return data(
          { id: `share${key}`, error: result.errors.profit_share ?? result.errors.form ?? "errors.try_again", typed },
          { status: result.status },
        );
      return back("copy.admin_share_saved");
    }
    default:
      return badRequest();
  }
}

export default function AdminTraders() {
  const { t } = useTranslation();
  const { pending, decided, traders } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  /** A refused profit share of this trader: the typed value comes back with its message. */
  const shareRefusal = (traderId: number) =>
    actionData && actionData.id === `share${traderId}` && "typed" in actionData ? actionData : null;
  const errorFor = (id: string) =>
    actionData && actionData.id === id ? (
      <p className="field-error" role="alert">
        {translateMessage(t, actionData.error)}
      </p>
    ) : null;
  return (
    <>
      <ReviewQueue id="applications-pending" title={t("copy.admin_applications")} count={pending.length}>
        {pending.map((a) => (
          <ReviewItem
            key={a.id}
            id={`application-${a.id}`}
            heading={
              <span>
                <span className="num">{a.uid}</span> · {a.email ?? a.mobile ?? ""}
              </span>
            }
          >
            <dl className="details">
              <div>
                <dt>{t("copy.admin_applied_at")}</dt>
                <dd>
                  <OrderTime ms={a.createdAt} locale={locale} />
                </dd>
              </div>
              <div>
                <dt>{t("copy.admin_closed_orders")}</dt>
                <dd className="num">{a.closedOrders}</dd>
              </div>
            </dl>
            <ReviewForm id={a.id} error={actionData?.id === String(a.id) ? actionData.error : null} />
          </ReviewItem>
        ))}
      </ReviewQueue>

      <section aria-labelledby="traders-list">
        <h2 id="traders-list">{t("copy.admin_traders")}</h2>
        {traders.length === 0 ? (
          <EmptyState title={t("copy.no_traders")} />
        ) : (
          <ul className="identity-queue">
            {traders.map((tr) => (
              <li key={tr.userId} className="card identity-request" aria-labelledby={`trader-${tr.userId}`}>
                <h3 id={`trader-${tr.userId}`}>
                  {tr.nickname} · <span className="num">{tr.uid}</span>
                </h3>
                <p className={tr.status === 1 ? "muted" : "decision-reject"}>
                  {tr.status === 1 ? t("copy.admin_active") : t("copy.admin_suspended", { reason: tr.suspendedReason })}
                  {" · "}
                  {t("copy.followers")}: <span className="num">{tr.followNum}</span>
                </p>
                {errorFor(`t${tr.userId}`)}
                <Form method="post" className="admin-inline-form">
                  <input type="hidden" name="trader_id" value={tr.userId} />
                  <PlainField
                    id={`share-${tr.userId}`}
                    name="profit_share"
                    label={t("copy.admin_share_percent")}
                    inputMode="decimal"
                    defaultValue={String(shareRefusal(tr.userId)?.typed ?? shareDecimalToPercent(tr.profitShare))}
                    error={shareRefusal(tr.userId)?.error}
                    autoComplete="off"
                    required
                  />
                  <SubmitButton intent={Intent.ProfitShare} className="button">
                    {t("copy.admin_save_share")}
                  </SubmitButton>
                </Form>
                <Form method="post" className="admin-inline-form">
                  <input type="hidden" name="trader_id" value={tr.userId} />
                  {tr.status === 1 ? (
                    <>
                      <div className="field">
                        <label htmlFor={`suspend-${tr.userId}`}>{t("copy.admin_suspend_reason")}</label>
                        <input id={`suspend-${tr.userId}`} name="reason" maxLength={200} autoComplete="off" />
                      </div>
                      <SubmitButton intent={Intent.Suspend} className="button danger">
                        {t("copy.admin_suspend")}
                      </SubmitButton>
                    </>
                  ) : (
                    <SubmitButton intent={Intent.Resume} className="button">
                      {t("copy.admin_resume")}
                    </SubmitButton>
                  )}
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>

      <DecisionHistory id="applications-decided" count={decided.length} empty={t("copy.admin_none_decided")}>
        {decided.map((d) => (
          <DecisionEntry key={d.id} d={d} labels={[t("admin.approved"), t("admin.rejected")]} locale={locale}>
            <span className="num">{d.uid ?? d.applicationId}</span> {d.email ?? ""}
          </DecisionEntry>
        ))}
      </DecisionHistory>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
