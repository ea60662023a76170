/**
 * /loan/submit (spec §2): the operators' loan terms as choices (period, amount bounds, daily
 * interest shown as rate/100 %, free period, late fee), the amount (loan.input_amount, within the
 * term's bounds), and a summary before continuing: interest, repayment date, total due. The form
 * is a GET to this page, so the summary (and its errors) renders on the server without
 * JavaScript; "Continue" opens the agreement with the figures. Needs an approved loan KYC.
 */
import { redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { ErrorSummary } from "~/components/forms";
import { Figures, LoanField } from "~/components/loan";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { amountInBounds, KycStatus, loanSummary, ratePercent, type LoanTerms } from "~/domain/loan";
import { formatMoney, parseAmount, toDecimalString, type Micros } from "~/domain/money";
import { languageInfo } from "~/i18n/config";
import { ApplicationSchema } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { kycOf, kycStatus } from "~/services/loan/kyc.server";
import { checkApplication, loanConfigs, openLoanId } from "~/services/loan/queries.server";
import { fail } from "~/services/outcome";
import { requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "loan", "upload"] };

export const meta = titled("loan.apply");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

/** The summary's figures as shown (the same pure rules on the server and, live, in the browser). */
function summaryView(configId: number, terms: LoanTerms, amount: Micros, now: number, locale: string) {
  const s = loanSummary(terms, amount, now);
  return {
    configId,
    amount: toDecimalString(amount, 2),
    amountText: formatMoney(amount, locale),
    interest: formatMoney(s.interest, locale),
    total: formatMoney(s.totalDue, locale),
    penalty: formatMoney(s.dailyPenalty, locale),
    date: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(s.repaymentDate),
    period: terms.loanPeriod,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  if (kycStatus(await kycOf(context, user.id)) !== KycStatus.Approved) throw redirect("/loan");
  const url = new URL(request.url);
  const [configs, openLoan] = await Promise.all([loanConfigs(context), openLoanId(context, user.id)]);
  const configId = url.searchParams.get("config_id") ?? "";
  const amount = (url.searchParams.get("amount") ?? "").slice(0, 20);
  const asked = url.searchParams.has("amount");
  const command = asked ? parseFields(ApplicationSchema, { config_id: configId, amount }) : null;
  const checked = command ? (command.ok ? await checkApplication(context, command.value) : fail(command.errors)) : null;
  const locale = languageInfo(context.lang).locale;
  return {
    openLoan,
    configs: configs.map((c) => ({
      id: c.id,
      loanPeriod: c.loanPeriod,
      freePeriod: c.freePeriod,
      min: formatMoney(c.minAmount, locale),
      max: formatMoney(c.maxAmount, locale),
      rate: ratePercent(c.interestRate),
      penalty: ratePercent(c.penaltyRate),
      terms: {
        loanPeriod: c.loanPeriod,
        freePeriod: c.freePeriod,
        minAmount: c.minAmount,
        maxAmount: c.maxAmount,
        interestRate: c.interestRate,
        penaltyRate: c.penaltyRate,
      },
    })),
    configId: configId || String(configs[0]?.id ?? ""),
    amount,
    errors: checked && !checked.ok ? checked.errors : null,
    locale,
    summary:
      checked && checked.ok ? summaryView(checked.value.config.id, checked.value.config, checked.value.amount, Date.now(), locale) : null,
  };
}

export default function LoanSubmit() {
  const { t } = useTranslation();
  const { openLoan, configs, configId, amount, errors, summary: served, locale } = useLoaderData<typeof loader>();
  // With JavaScript the summary follows the choice and the amount as they change (same rules as the server's).
  const [live, setLive] = useState<{ configId: string; amount: string } | null>(null);
  const chosen = configs.find((c) => String(c.id) === (live?.configId ?? configId));
  let summary = served;
  if (live) {
    const typed = parseAmount(live.amount, 2);
    summary =
      chosen && typed !== null && typed > 0 && amountInBounds(typed, chosen.terms)
        ? summaryView(chosen.id, chosen.terms, typed, Date.now(), locale)
        : null;
  }
  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    setLive({ configId: String(data.get("config_id") ?? ""), amount: String(data.get("amount") ?? "") });
  };
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.apply")} back="/" actions={<Link to="/loan/record">{t("loan.record")}</Link>} />
      {openLoan ? (
        <p className="notice warn" role="status">
          {t("loan.already_open")} <Link to="/loan/record">{t("loan.record")}</Link>
        </p>
      ) : null}
      <Form method="get" className="form" key={`${configId}-${amount}`} onChange={onChange}>
        <ErrorSummary errors={errors} />
        <fieldset className="loan-terms" aria-describedby={errors?.config_id ? "config-error" : undefined}>
          <legend>{t("loan.terms")}</legend>
          {configs.map((c) => (
            <label key={c.id} className="loan-term">
              <input type="radio" name="config_id" value={c.id} defaultChecked={String(c.id) === configId} required />
              <span className="term-main">
                <strong>{t("loan.period_days", { n: c.loanPeriod })}</strong>
                <span className="num small">
                  {c.min}–{c.max} USD · {t("loan.daily_rate")} {c.rate}%
                  {c.freePeriod > 0 ? ` · ${t("loan.free_days", { n: c.freePeriod })}` : ""} · {t("loan.penalty_rate")} {c.penalty}%
                </span>
              </span>
            </label>
          ))}
          {errors?.config_id ? (
            <p className="field-error" id="config-error">
              {t(errors.config_id)}
            </p>
          ) : null}
        </fieldset>
        <LoanField
          name="amount"
          label={t("loan.amount")}
          error={errors?.amount}
          defaultValue={amount}
          inputMode="decimal"
          autoComplete="off"
          hint={chosen ? t("loan.amount_hint", { min: chosen.min, max: chosen.max }) : undefined}
        />
        <button type="submit" className="button">
          {t("loan.show_summary")}
        </button>
      </Form>
      {summary ? (
        <section className="card stack" aria-labelledby="loan-summary" aria-live="polite">
          <h2 id="loan-summary" className="section-title">
            {t("loan.summary")}
          </h2>
          <Figures
            rows={[
              [t("loan.amount"), `${summary.amountText} USD`],
              [t("loan.loan_period"), t("loan.period_days", { n: summary.period })],
              [t("loan.interest"), `${summary.interest} USD`],
              [t("loan.repayment_date"), summary.date],
              [t("loan.total_due"), <strong key="total">{summary.total} USD</strong>],
              [t("loan.late_fee"), t("loan.late_fee_value", { amount: summary.penalty })],
            ]}
          />
          <Link className="button primary" to={`/loan/agreement?id=${summary.configId}&amount=${encodeURIComponent(summary.amount)}`}>
            {t("loan.continue")}
          </Link>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
