/**
 * /loan/repayment?loan_id (spec §2): what is due (principal + interest + late fees accrued daily
 * after the repayment date), the repayment accounts with their addresses to copy, the account
 * used and a transfer proof. Submitting (multipart, works without JavaScript) sends the proof:
 * the figures are snapshotted and the loan goes to 4 (repayment under check). Only a loan of
 * this user at status 2; another user's loan answers 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CopyButton } from "~/components/copy-button";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { Figures, LoanStatusBadge } from "~/components/loan";
import { PhotoInput } from "~/components/photo-input";
import { RouteErrorBoundary } from "~/components/route-error";
import { LoanStatus, dueNow } from "~/domain/loan";
import { formatMoney } from "~/domain/money";
import { Intent } from "~/forms/intents";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { RepaySchema, RepaymentLoanSchema } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { submitRepayment } from "~/services/loan/commands.server";
import { ownedLoan, repaymentAccounts } from "~/services/loan/queries.server";
import { fail, type FieldErrors } from "~/services/outcome";
import { ownedUpload, readFormWithUploads, uploadFieldError, uploadIdOf, uploadUrl } from "~/services/uploads.server";
import { redirectWithFlash, requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "deposit", "loan", "upload", "wallet"] };

export const meta = titled("loan.repayment");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const asked = parseFields(RepaymentLoanSchema, new URL(request.url).searchParams);
  const loan = await ownedLoan(context, user.id, asked.ok ? asked.value.loanId : null);
  if (!loan) throw new Response("Not Found", { status: 404 });
  const accounts = await repaymentAccounts(context);
  return { loan: { id: loan.id, status: loan.status, dueAt: loan.dueAt }, due: dueNow(loan, Date.now()), accounts };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  let form: URLSearchParams;
  try {
    form = await readFormWithUploads(context, request, user.id, { proofImg: "repayment_proof" });
  } catch (error) {
    if (error instanceof Response && error.status === 413)
      return data({ errors: { proofImg: "errors.upload_too_large" } as FieldErrors, chargeId: "", kept: null }, { status: 413 });
    throw error;
  }
  const loanId = new URL(request.url).searchParams.get("loan_id") ?? "";
  if (form.get("intent") !== Intent.RepayLoan)
    return data({ errors: { form: "errors.bad_request" } as FieldErrors, chargeId: "", kept: null }, { status: 400 });
  const proof = form.getAll("proofImg").find(Boolean) ?? "";
  const chargeId = form.get("charge_id") ?? "";
  const command = parseFields(RepaySchema, { loan_id: loanId, charge_id: chargeId, proofImg: proof });
  const result = command.ok ? await submitRepayment(context, user, command.value) : fail(command.errors);
  if (!result.ok) {
    if (result.status === 404) throw new Response("Not Found", { status: 404 });
    const kept = uploadFieldError(proof) ? null : await ownedUpload(context, user.id, uploadIdOf(proof));
    return data(
      { errors: result.errors, chargeId, kept: kept ? { id: kept.id, url: uploadUrl(kept.id) } : null },
      { status: result.status },
    );
  }
  return redirectWithFlash(context, "/loan/record", { kind: "success", message: "loan.repayment_sent" });
}

export default function LoanRepayment() {
  const { t } = useTranslation();
  const { loan, due, accounts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.errors ?? {};
  const locale = useRootData()?.locale ?? "en-US";
  const usd = (m: number) => `${formatMoney(m, locale)} USD`;
  const chosen = actionData?.chargeId ?? "";
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.repayment")} back="/loan/record" />
      <section className="card stack" aria-labelledby="due-title">
        <div className="record-head">
          <h2 id="due-title" className="section-title">
            {t("loan.loan_no", { id: loan.id })} · {t("loan.due_breakdown")}
          </h2>
          <LoanStatusBadge status={loan.status} />
        </div>
        <Figures
          rows={[
            [t("loan.principal"), usd(due.principal)],
            [t("loan.interest"), usd(due.interest)],
            [t("loan.penalty"), usd(due.penalty)],
            [t("loan.late_days"), String(due.lateDays)],
            [t("loan.late_fee"), t("loan.late_fee_value", { amount: formatMoney(due.dailyPenalty, locale) })],
            [
              t("loan.total_due"),
              <strong key="total" className="loan-total">
                {usd(due.total)}
              </strong>,
            ],
          ]}
        />
      </section>
      {loan.status !== LoanStatus.ToRepay ? (
        <p className="notice" role="status">
          {t("loan.not_repayable")} <Link to="/loan/record">{t("loan.record")}</Link>
        </p>
      ) : (
        <Form method="post" encType="multipart/form-data" className="form">
          <ErrorSummary errors={errors} />
          <fieldset className="repay-accounts" aria-describedby={errors.charge_id ? "charge-error" : undefined}>
            <legend>{t("loan.accounts")}</legend>
            {accounts.map((a) => (
              <div key={a.id} className="repay-account">
                <input type="radio" id={`charge-${a.id}`} name="charge_id" value={a.id} defaultChecked={chosen === String(a.id)} required />
                <div className="stack">
                  <label htmlFor={`charge-${a.id}`}>
                    <strong>
                      {a.currencyCode} · {a.protocolCode}
                    </strong>
                  </label>
                  <code translate="no">{a.address}</code>
                  <CopyButton text={a.address} label={t("loan.copy_address")} />
                </div>
              </div>
            ))}
            {errors.charge_id ? (
              <p className="field-error" id="charge-error">
                {translateMessage(t, errors.charge_id)}
              </p>
            ) : null}
          </fieldset>
          <PhotoInput
            name="proofImg"
            label={t("loan.proof")}
            purpose="repayment_proof"
            error={errors.proofImg}
            hint={t("upload.hint")}
            kept={actionData?.kept ?? null}
          />
          <SubmitButton intent={Intent.RepayLoan}>{t("loan.repay_submit")}</SubmitButton>
        </Form>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
