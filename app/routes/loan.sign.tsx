/**
 * /loan/sign (spec §2: id, amount): the summary and the agreement once more, then the signature:
 * a pad drawn with pointer events (with JavaScript; each stroke is stored as a PNG ahead of the
 * submit), or the full name typed (the keyboard-accessible fallback, and the only way without
 * JavaScript) which must match the loan KYC name. Submitting applies (status 1) with the
 * agreement rendered and stored exactly as signed; a double submit creates one loan
 * (request_id); a second open loan is refused with a clear message.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { Figures, LoanField, SignaturePad } from "~/components/loan";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { KycStatus } from "~/domain/loan";
import { formatMoney, toDecimalString } from "~/domain/money";
import { Intent } from "~/forms/intents";
import { languageInfo } from "~/i18n/config";
import { readForm } from "~/lib/http.server";
import { ApplicationSchema, SignSchema, agreementQuery } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { applyLoan } from "~/services/loan/commands.server";
import { kycFullName, kycOf, kycStatus } from "~/services/loan/kyc.server";
import { agreementDigest, agreementText, checkApplication } from "~/services/loan/queries.server";
import { fail, type FieldErrors } from "~/services/outcome";
import { redirectWithFlash, requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "loan", "upload"] };

export const meta = titled("loan.sign_now");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const kyc = await kycOf(context, user.id);
  if (kycStatus(kyc) !== KycStatus.Approved || !kyc) throw redirect("/loan");
  const asked = parseFields(ApplicationSchema, agreementQuery(new URL(request.url).searchParams));
  const checked = asked.ok ? await checkApplication(context, asked.value) : asked;
  if (!checked.ok) throw redirect("/loan/submit");
  const locale = languageInfo(context.lang).locale;
  const { config, amount, summary } = checked.value;
  const shownAt = Date.now();
  const text = agreementText(context, checked.value, kycFullName(kyc), shownAt);
  return {
    configId: config.id,
    amount: toDecimalString(amount, 2),
    name: kycFullName(kyc),
    text,
    shownAt,
    shownLang: context.lang,
    terms: await agreementDigest(text),
    figures: {
      amount: formatMoney(amount, locale),
      interest: formatMoney(summary.interest, locale),
      total: formatMoney(summary.totalDue, locale),
      period: config.loanPeriod,
      date: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(summary.repaymentDate),
    },
    requestId: crypto.randomUUID(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const form = await readForm(request);
  if (form.get("intent") !== Intent.ApplyLoan)
    return data({ errors: { form: "errors.bad_request" } as FieldErrors, signatureName: "" }, { status: 400 });
  const command = parseFields(SignSchema, form);
  const result = command.ok ? await applyLoan(context, user, command.value) : fail(command.errors);
  if (!result.ok)
    return data({ errors: result.errors, signatureName: (form.get("signature_name") ?? "").slice(0, 100) }, { status: result.status });
  return redirectWithFlash(context, "/loan/record", { kind: "success", message: "loan.submitted" });
}

export default function LoanSign() {
  const { t } = useTranslation();
  const { configId, amount, name, text, shownAt, shownLang, terms, figures, requestId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.errors ?? {};
  // while a drawn signature is being stored, submitting would send none
  const [busy, setBusy] = useState(false);
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.sign_now")} back={`/loan/agreement?id=${configId}&amount=${encodeURIComponent(amount)}`} />
      <section className="card stack" aria-labelledby="sign-summary">
        <h2 id="sign-summary" className="section-title">
          {t("loan.summary")}
        </h2>
        <Figures
          rows={[
            [t("loan.amount"), `${figures.amount} USD`],
            [t("loan.loan_period"), t("loan.period_days", { n: figures.period })],
            [t("loan.interest"), `${figures.interest} USD`],
            [t("loan.repayment_date"), figures.date],
            [t("loan.total_due"), <strong key="total">{figures.total} USD</strong>],
          ]}
        />
      </section>
      <details className="card">
        <summary>{t("loan.agreement")}</summary>
        <div className="agreement-text" tabIndex={0}>
          {text}
        </div>
      </details>
      <Form method="post" className="form">
        <input type="hidden" name="config_id" value={configId} />
        <input type="hidden" name="amount" value={amount} />
        <input type="hidden" name="request_id" value={requestId} />
        {/* the agreement as shown: if the terms change before the submit, it is shown again */}
        <input type="hidden" name="shown_at" value={shownAt} />
        <input type="hidden" name="shown_lang" value={shownLang} />
        <input type="hidden" name="terms" value={terms} />
        <ErrorSummary errors={errors} />
        <SignaturePad error={errors.sign} onBusy={setBusy} />
        <LoanField
          name="signature_name"
          label={t("loan.signature_name")}
          error={errors.signature_name ?? errors.sign}
          defaultValue={actionData?.signatureName ?? ""}
          autoComplete="name"
          maxLength={100}
          hint={t("loan.signature_name_hint", { name })}
        />
        <SubmitButton intent={Intent.ApplyLoan} disabled={busy}>
          {t("loan.submit")}
        </SubmitButton>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
