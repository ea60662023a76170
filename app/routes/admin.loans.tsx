/**
 * The operator's loan console (issue 12 §1): loan KYC review with the photo (approve, or reject
 * with a reason: the user may submit again), loan applications (approve pays the amount into the
 * user's funding account once, and needs this session's fresh step-up; reject with a reason),
 * repayment checks with the proof (approve settles the loan; reject puts it back to "to repay"
 * with the reason), and the loan terms, editable with their bounds validated. Plain forms: works
 * without JavaScript. Anyone but an operator gets 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PrivateImage, QueueNotices } from "~/components/admin";
import { ErrorSummary, PlainField, SubmitButton } from "~/components/forms";
import { Figures } from "~/components/loan";
import { OrderTime } from "~/components/orders";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { RouteErrorBoundary } from "~/components/route-error";
import { ratePercent } from "~/domain/loan";
import { formatMoney, toDecimalString } from "~/domain/money";
import { Intent } from "~/forms/intents";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { ConfigSchema, DecisionSchema } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import {
  approveLoan,
  approveRepayment,
  decideKyc,
  pendingKyc,
  pendingLoans,
  pendingRepayments,
  rejectLoan,
  rejectRepayment,
  updateLoanConfig,
} from "~/services/loan/operator.server";
import { loanConfigs } from "~/services/loan/queries.server";
import { fail } from "~/services/outcome";
import { requireOperator, requireStepUp, stepUpUntil } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "loan", "orders", "trade", "upload"] };

export const meta = titled("loan.admin_title", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const [kyc, loans, repayments, configs, until] = await Promise.all([
    pendingKyc(context, operator),
    pendingLoans(context, operator),
    pendingRepayments(context, operator),
    loanConfigs(context, true),
    stepUpUntil(context),
  ]);
  return {
    kyc,
    loans: loans.map((l) => ({ ...l, agreement: undefined })),
    repayments,
    configs: configs.map((c) => ({ ...c, min: toDecimalString(c.minAmount, 2), max: toDecimalString(c.maxAmount, 2) })),
    stepUp: until > 0,
  };
}

/** A refused form: its errors, and for the terms form what the operator typed (shown again). */
type ActionResult = { key: string; errors: Partial<Record<string, string>>; values?: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const decision = parseFields(DecisionSchema, form);
  if (!decision.ok) return data<ActionResult>({ key: "", errors: { form: "errors.bad_request" } }, { status: 400 });
  const { subject, id, reason } = decision.value;
  const key = `${subject}-${id}`;
  let outcome;
  let values: Record<string, string> | undefined;
  let message = intent === Intent.Approve ? "admin.approved" : "admin.rejected";
  if (intent === Intent.LoanConfig) {
    // what the operator typed, shown again if refused
    values = Object.fromEntries(
      ["loan_period", "free_period", "min_amount", "max_amount", "interest_rate", "penalty_rate", "status"].map((n) => [
        n,
        (form.get(n) ?? "").slice(0, 40),
      ]),
    );
    const terms = parseFields(ConfigSchema, form);
    outcome = terms.ok ? await updateLoanConfig(context, operator, id, terms.value) : fail(terms.errors);
    message = "loan.config_saved";
  } else if (intent === Intent.Approve || intent === Intent.Reject) {
    const approve = intent === Intent.Approve;
    switch (subject) {
      case "kyc":
        outcome = await decideKyc(context, operator, id, approve, reason);
        break;
      case "loan":
        if (approve) {
          const { sessionId } = await requireStepUp(context, request);
          outcome = await approveLoan(context, operator, sessionId, id);
        } else outcome = await rejectLoan(context, operator, id, reason);
        break;
      case "repayment":
        if (approve) {
          const { sessionId } = await requireStepUp(context, request);
          outcome = await approveRepayment(context, operator, sessionId, id);
        } else outcome = await rejectRepayment(context, operator, id, reason);
        break;
      default:
        return data<ActionResult>({ key, errors: { form: "errors.bad_request" } }, { status: 400 });
    }
  } else {
    return data<ActionResult>({ key, errors: { form: "errors.bad_request" } }, { status: 400 });
  }
  if (!outcome.ok) {
    const first = Object.values(outcome.errors)[0] ?? "errors.try_again";
    if (first === "admin.already_decided" || first === "errors.not_found")
      return redirectWithFlash(context, "/admin/loans", { kind: "error", message: first });
    return data<ActionResult>({ key, errors: outcome.errors, values }, { status: outcome.status });
  }
  return redirectWithFlash(context, "/admin/loans", { kind: "success", message });
}

export default function AdminLoans() {
  const { t } = useTranslation();
  const { kyc, loans, repayments, configs, stepUp } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const usd = (m: number) => `${formatMoney(m, locale)} USD`;
  const errorFor = (key: string) => (actionData && actionData.key === key ? Object.values(actionData.errors)[0] : undefined);
  return (
    <>
      <nav className="admin-loans-nav" aria-label={t("loan.admin_title")}>
        <a href="#loan-kyc">
          {t("loan.admin_kyc")} ({kyc.length})
        </a>
        <a href="#loan-applications">
          {t("loan.admin_loans")} ({loans.length})
        </a>
        <a href="#loan-repayments">
          {t("loan.admin_repayments")} ({repayments.length})
        </a>
        <a href="#loan-configs">{t("loan.admin_configs")}</a>
      </nav>
      <QueueNotices
        needsStepUp={!stepUp && (loans.length > 0 || repayments.length > 0)}
        message="loan.step_up_needed"
        from="/admin/loans"
      />

      <ReviewQueue id="loan-kyc-title" anchor="loan-kyc" title={t("loan.admin_kyc")} count={kyc.length}>
        {kyc.map((k) => {
          const name = `${k.firstName} ${k.lastName}`;
          return (
            <ReviewItem key={k.userId} id={`kyc-${k.userId}`} heading={name}>
              <Figures
                rows={[
                  [t("admin.user"), `${k.uid} · ${k.email ?? "—"}`],
                  [t("loan.sex"), t(`loan.sex_${k.sex}`)],
                  [t("loan.birthday"), k.birthday],
                  [t("loan.country"), k.country],
                  [t("loan.mobile"), k.mobile],
                  [t("loan.id_card_type"), t(`loan.id_card_type_${k.idCardType}`)],
                ]}
              />
              <PrivateImage uploadId={k.handUploadId} alt={t("loan.hand_pic_of", { name })} />
              <ReviewForm subject="kyc" id={k.userId} error={errorFor(`kyc-${k.userId}`)} />
            </ReviewItem>
          );
        })}
      </ReviewQueue>

      <ReviewQueue id="loan-applications-title" anchor="loan-applications" title={t("loan.admin_loans")} count={loans.length}>
        {loans.map((l) => (
          <ReviewItem key={l.id} id={`loan-${l.id}`} heading={`${t("loan.loan_no", { id: l.id })} · ${usd(l.amount)}`}>
            <Figures
              rows={[
                [t("admin.user"), `${l.borrower} · ${l.uid} · ${l.email ?? "—"}`],
                [t("loan.loan_period"), t("loan.period_days", { n: l.loanPeriod })],
                [t("loan.daily_rate"), `${ratePercent(l.interestRate)}%`],
                [t("loan.interest"), usd(l.interestAmount)],
                [t("loan.applied_at"), <OrderTime key="t" ms={l.createdAt} locale={locale} />],
                [t("loan.signed_by"), l.signatureName || "—"],
              ]}
            />
            {l.signatureUploadId ? <PrivateImage uploadId={l.signatureUploadId} alt={t("loan.signature_of", { id: l.id })} /> : null}
            <ReviewForm subject="loan" id={l.id} approveLabel={t("loan.approve_loan")} error={errorFor(`loan-${l.id}`)} />
          </ReviewItem>
        ))}
      </ReviewQueue>

      <ReviewQueue id="loan-repayments-title" anchor="loan-repayments" title={t("loan.admin_repayments")} count={repayments.length}>
        {repayments.map((r) => (
          <ReviewItem
            key={r.id}
            id={`repayment-${r.id}`}
            heading={`${t("loan.repayment_no", { id: r.loanId })} · ${usd(r.principal + r.interest + r.penalty)}`}
          >
            <Figures
              rows={[
                [t("admin.user"), `${r.uid} · ${r.email ?? "—"}`],
                [t("loan.principal"), usd(r.principal)],
                [t("loan.interest"), usd(r.interest)],
                [t("loan.penalty"), usd(r.penalty)],
                [t("loan.accounts"), r.currencyCode ?? String(r.chargeId)],
                [t("loan.applied_at"), <OrderTime key="t" ms={r.createdAt} locale={locale} />],
              ]}
            />
            <PrivateImage uploadId={r.proofUploadId} alt={t("loan.proof_of", { id: r.loanId })} />
            <ReviewForm subject="repayment" id={r.id} approveLabel={t("loan.approve_repayment")} error={errorFor(`repayment-${r.id}`)} />
          </ReviewItem>
        ))}
      </ReviewQueue>

      <section id="loan-configs" aria-labelledby="loan-configs-title" className="stack">
        <h2 id="loan-configs-title" className="section-title">
          {t("loan.admin_configs")}
        </h2>
        <p className="muted small">{t("loan.rate_hint")}</p>
        {configs.map((c) => {
          const mine = actionData && actionData.key === `config-${c.id}` ? actionData : null;
          const failed = mine?.errors ?? {};
          // a refused form shows what was typed, with the error next to its field
          const input = (name: string, label: string, value: string | number, mode: "numeric" | "decimal") => (
            <PlainField
              id={`config-${c.id}-${name}`}
              name={name}
              label={label}
              defaultValue={mine?.values?.[name] ?? String(value)}
              error={failed[name]}
              inputMode={mode}
              required
            />
          );
          return (
            <Form key={c.id} method="post" className="card stack" aria-labelledby={`config-${c.id}-title`}>
              <h3 id={`config-${c.id}-title`}>{t("loan.config_no", { id: c.id })}</h3>
              <input type="hidden" name="subject" value="config" />
              <input type="hidden" name="id" value={c.id} />
              <ErrorSummary errors={failed} />
              <div className="admin-edit-grid">
                {input("loan_period", t("loan.loan_period"), c.loanPeriod, "numeric")}
                {input("free_period", t("loan.free_period"), c.freePeriod, "numeric")}
                {input("min_amount", t("loan.min_amount"), c.min, "decimal")}
                {input("max_amount", t("loan.max_amount"), c.max, "decimal")}
                {input("interest_rate", t("loan.daily_rate"), c.interestRate, "decimal")}
                {input("penalty_rate", t("loan.penalty_rate"), c.penaltyRate, "decimal")}
                <label className="field">
                  <span>
                    <input
                      type="checkbox"
                      name="status"
                      value="1"
                      defaultChecked={mine?.values ? mine.values.status === "1" : c.status === 1}
                    />{" "}
                    {t("loan.config_status")}
                  </span>
                </label>
              </div>
              <SubmitButton intent={Intent.LoanConfig}>{t("loan.config_save")}</SubmitButton>
            </Form>
          );
        })}
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
