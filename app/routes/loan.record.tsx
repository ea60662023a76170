/**
 * /loan/record (spec §2, §4 Loan states): the user's loans, newest first, ten a page: amount,
 * period, interest, late fees, repayment date, reviewed and repayment times, the status
 * translated (1 awaiting review, 2 to repay, 3 rejected, 4 repayment under check, 5 repaid);
 * "Repay" is enabled only at 2. Plain links: works without JavaScript.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { EmptyState, PageHeader } from "~/components/layout";
import { Figures, LoanStatusBadge } from "~/components/loan";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { LoanStatus, dueNow } from "~/domain/loan";
import { formatMoney } from "~/domain/money";
import { useRootData } from "~/lib/root-data";
import { PageSchema } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { loanRecords } from "~/services/loan/queries.server";
import { requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "loan", "orders", "trade", "upload"] };

export const meta = titled("loan.record");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const asked = parseFields(PageSchema, new URL(request.url).searchParams);
  const page = await loanRecords(context, user.id, asked.ok ? asked.value.page : 1);
  const now = Date.now();
  return {
    ...page,
    records: page.records.map((l) => ({
      id: l.id,
      amount: l.amount,
      loanPeriod: l.loanPeriod,
      interest: l.interestAmount,
      penalty: dueNow(l, now).penalty,
      status: l.status,
      reason: l.reason,
      dueAt: l.dueAt,
      reviewedAt: l.reviewedAt,
      repaymentTime: l.repaymentTime,
      createdAt: l.createdAt,
    })),
  };
}

export default function LoanRecord() {
  const { t } = useTranslation();
  const { records, page, lastPage } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const usd = (m: number) => `${formatMoney(m, locale)} USD`;
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.record")} back="/loan" />
      {records.length === 0 ? (
        <EmptyState title={t("loan.record_empty")}>
          <Link className="button primary" to="/loan">
            {t("loan.apply")}
          </Link>
        </EmptyState>
      ) : null}
      <ul className="loan-list">
        {records.map((l) => (
          <li key={l.id} className="card loan-item" aria-labelledby={`loan-${l.id}`}>
            <div className="record-head">
              <h2 id={`loan-${l.id}`} className="section-title">
                {t("loan.loan_no", { id: l.id })}
              </h2>
              <LoanStatusBadge status={l.status} />
            </div>
            <Figures
              rows={[
                [t("loan.amount"), usd(l.amount)],
                [t("loan.loan_period"), t("loan.period_days", { n: l.loanPeriod })],
                [t("loan.interest"), usd(l.interest)],
                [t("loan.penalty"), usd(l.penalty)],
                [t("loan.repayment_date"), l.dueAt ? <OrderTime key="due" ms={l.dueAt} locale={locale} /> : "—"],
                [t("loan.applied_at"), <OrderTime key="created" ms={l.createdAt} locale={locale} />],
                [t("loan.reviewed_at"), l.reviewedAt ? <OrderTime key="reviewed" ms={l.reviewedAt} locale={locale} /> : "—"],
                [t("loan.repayment_time"), l.repaymentTime ? <OrderTime key="repaid" ms={l.repaymentTime} locale={locale} /> : "—"],
              ]}
            />
            {l.reason ? <p className="small">{t("loan.reason", { reason: l.reason })}</p> : null}
            <div className="loan-actions">
              {l.status === LoanStatus.ToRepay ? (
                <Link className="button primary" to={`/loan/repayment?loan_id=${l.id}`}>
                  {t("loan.repay")}
                </Link>
              ) : (
                <button type="button" className="button" disabled>
                  {t("loan.repay")}
                </button>
              )}
              <Link className="button" to={`/loan/agreement?loan_id=${l.id}`}>
                {t("loan.view_agreement")}
              </Link>
            </div>
          </li>
        ))}
      </ul>
      {lastPage > 1 ? (
        <nav className="loan-pager" aria-label={t("loan.page_of", { page, last: lastPage })}>
          {page > 1 ? <Link to={`?page=${page - 1}`}>{t("loan.prev")}</Link> : <span />}
          <span className="muted small">{t("loan.page_of", { page, last: lastPage })}</span>
          {page < lastPage ? <Link to={`?page=${page + 1}`}>{t("loan.next")}</Link> : <span />}
        </nav>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
