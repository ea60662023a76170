/**
 * Deposit records (spec §3 Charge record: number, type, currency_code, status, created_at,
 * remark; §4 status 0 unchecked, 1 finished, 2 rejected, 3 invalid): the user's own requests,
 * newest first, paged with plain links; tabs for all, coin and bank.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { DepositAmount, DepositStatusBadge } from "~/components/deposit";
import { EmptyState, PageHeader } from "~/components/layout";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { DepositType } from "~/domain/deposit";
import { useRootData } from "~/lib/root-data";
import { depositRecords } from "~/services/deposit.server";
import { requireRealUser } from "~/services/web.server";
import depositStylesHref from "~/styles/deposit.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "copy", "deposit", "home", "orders", "trade", "wallet", "withdraw"] };

export const meta = titled("deposit.records");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: depositStylesHref }];

function filterOf(url: URL): DepositType | null {
  const type = url.searchParams.get("type");
  return type === "0" ? DepositType.Coin : type === "1" ? DepositType.Bank : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("page") ?? "";
  const page = /^\d{1,5}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  const type = filterOf(url);
  return { type, ...(await depositRecords(context, user.id, page, type)) };
}

export default function ChargeRecords() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const href = (type: number | null, page = 1) => {
    const q = new URLSearchParams();
    if (type !== null) q.set("type", String(type));
    if (page > 1) q.set("page", String(page));
    const s = q.toString();
    return `/mine/charge/records${s ? `?${s}` : ""}`;
  };
  const tabs = [
    { type: null, label: t("deposit.all") },
    { type: DepositType.Coin, label: t("deposit.coin") },
    { type: DepositType.Bank, label: t("deposit.bank") },
  ];
  return (
    <div className="page narrow deposit-page">
      <PageHeader
        title={t("deposit.records")}
        back={`/mine/charge?type=${d.type ?? 0}`}
        actions={
          <Link to={`/mine/charge?type=${d.type ?? 0}`} className="small-button button">
            {t("deposit.new")}
          </Link>
        }
      />
      <nav className="segmented" aria-label={t("deposit.records")}>
        {tabs.map((tab) => (
          <Link
            key={String(tab.type)}
            to={href(tab.type)}
            replace
            className={d.type === tab.type ? "active" : undefined}
            aria-current={d.type === tab.type ? "page" : undefined}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {d.records.length === 0 ? (
        <EmptyState title={t("deposit.no_records")}>
          <Link to={`/mine/charge?type=${d.type ?? 0}`} className="button primary">
            {t("deposit.new")}
          </Link>
        </EmptyState>
      ) : (
        <ul className="record-list" aria-label={t("deposit.records")}>
          {d.records.map((r) => (
            <li key={r.id} className="card record">
              <div className="record-head">
                <span className="record-amount">
                  <DepositAmount amount={r.amount} coinCount={r.coinCount} currencyCode={r.currencyCode} locale={locale} />
                </span>
                <DepositStatusBadge status={r.status} />
              </div>
              <dl className="record-meta">
                <div>
                  <dt>{t("deposit.type")}</dt>
                  <dd>{r.type === DepositType.Coin ? t("deposit.coin") : t("deposit.bank")}</dd>
                </div>
                <div>
                  <dt>{t("deposit.currency")}</dt>
                  <dd>{r.currencyCode}</dd>
                </div>
                <div>
                  <dt>{t("deposit.number")}</dt>
                  <dd className="num">#{r.id}</dd>
                </div>
                <div>
                  <dt>{t("deposit.time")}</dt>
                  <dd>
                    <OrderTime ms={r.createdAt} locale={locale} />
                  </dd>
                </div>
                {r.remark ? (
                  <div className="record-remark">
                    <dt>{t("deposit.remark")}</dt>
                    <dd>{r.remark}</dd>
                  </div>
                ) : null}
              </dl>
            </li>
          ))}
        </ul>
      )}
      {d.lastPage > 1 ? (
        <nav className="pager" aria-label={t("deposit.pages")}>
          {d.page > 1 ? (
            <Link to={href(d.type, d.page - 1)} rel="prev" className="button">
              {t("deposit.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted small num">{t("deposit.page_of", { page: d.page, last: d.lastPage })}</span>
          {d.page < d.lastPage ? (
            <Link to={href(d.type, d.page + 1)} rel="next" className="button">
              {t("deposit.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
