/**
 * /loan/agreement (spec §2): with id (the config) and amount, the agreement text in the user's
 * language with the figures filled in, then "Sign"; with loan_id, the agreement of a signed loan
 * exactly as stored, with its signature. Another user's loan answers 404 like a missing one.
 */
import { redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PrivateImage } from "~/components/admin";
import { ErrorSummary } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { KycStatus } from "~/domain/loan";
import { toDecimalString } from "~/domain/money";
import { ApplicationSchema, RepaymentLoanSchema, agreementQuery } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { kycFullName, kycOf, kycStatus } from "~/services/loan/kyc.server";
import { agreementText, checkApplication, ownedLoan } from "~/services/loan/queries.server";
import { requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "loan"] };

export const meta = titled("loan.agreement");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const url = new URL(request.url);
  if (url.searchParams.has("loan_id")) {
    const asked = parseFields(RepaymentLoanSchema, url.searchParams);
    const loan = await ownedLoan(context, user.id, asked.ok ? asked.value.loanId : null);
    if (!loan) notFound();
    return {
      signed: { id: loan.id, text: loan.agreement, signatureUploadId: loan.signatureUploadId, signatureName: loan.signatureName },
      draft: null,
      errors: null,
    };
  }
  const kyc = await kycOf(context, user.id);
  if (kycStatus(kyc) !== KycStatus.Approved || !kyc) throw redirect("/loan");
  const asked = parseFields(ApplicationSchema, agreementQuery(url.searchParams));
  const checked = asked.ok ? await checkApplication(context, asked.value) : asked;
  if (!checked.ok) return { signed: null, draft: null, errors: checked.errors };
  const now = Date.now();
  return {
    signed: null,
    draft: {
      text: agreementText(context, checked.value, kycFullName(kyc), now),
      configId: checked.value.config.id,
      amount: toDecimalString(checked.value.amount, 2),
    },
    errors: null,
  };
}

export default function LoanAgreement() {
  const { t } = useTranslation();
  const { signed, draft, errors } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.agreement")} back={signed ? "/loan/record" : "/loan/submit"} />
      <ErrorSummary errors={errors} />
      {errors ? (
        <Link className="button" to="/loan/submit">
          {t("loan.apply")}
        </Link>
      ) : null}
      {draft ? (
        <section className="stack" aria-labelledby="agreement-title">
          <h2 id="agreement-title" className="section-title">
            {t("loan.agreement")}
          </h2>
          <p className="muted">{t("loan.agreement_intro")}</p>
          <div className="agreement-text" tabIndex={0} aria-labelledby="agreement-title">
            {draft.text}
          </div>
          <Link className="button primary" to={`/loan/sign?id=${draft.configId}&amount=${encodeURIComponent(draft.amount)}`}>
            {t("loan.sign_now")}
          </Link>
        </section>
      ) : null}
      {signed ? (
        <section className="stack" aria-labelledby="agreement-title">
          <h2 id="agreement-title" className="section-title">
            {t("loan.loan_no", { id: signed.id })}
          </h2>
          <div className="agreement-text" tabIndex={0} aria-labelledby="agreement-title">
            {signed.text}
          </div>
          <p className="muted small">{t("loan.signed_by")}</p>
          {signed.signatureUploadId ? (
            <PrivateImage uploadId={signed.signatureUploadId} alt={t("loan.signature_of", { id: signed.id })} />
          ) : (
            <p className="signature-typed">{signed.signatureName}</p>
          )}
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
