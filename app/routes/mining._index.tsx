/**
 * Mining products (spec §2 /mining): the fund products open for subscription, paged — title,
 * image, currency code, expected profit % (a day), machine rent (the starting amount) — each
 * with a subscribe link; the orders icon leads to /mining/record. Plain links: no JavaScript needed.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { FundMoney, Percent, FundFigure } from "~/components/fund";
import { OrderIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { Pager } from "~/components/wallet";
import { useRootData } from "~/lib/root-data";
import { pageNumber } from "~/forms/fund";
import { listFunds } from "~/services/fund/queries.server";
import fundStylesHref from "~/styles/fund.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "fund", "home", "orders", "wallet"] };

export const meta = titled("fund.title", { description: "fund.meta_description" });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: fundStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = await listFunds(context, pageNumber(new URL(request.url).searchParams.get("page")));
  return { page };
}

export default function MiningPage() {
  const { t } = useTranslation();
  const { page } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow">
      <PageHeader
        title={t("fund.title")}
        back="/"
        actions={
          <Link to="/mining/record" className="icon-button" aria-label={t("fund.records")}>
            <OrderIcon />
          </Link>
        }
      />
      {page.items.length === 0 ? (
        <EmptyState title={t("common.no_data")} />
      ) : (
        <ul className="fund-list">
          {page.items.map((f) => (
            <li key={f.id} className="card fund-card">
              <img src={f.image || "/funds/hydro.svg"} alt="" width={64} height={64} loading="lazy" />
              <div className="stack">
                <h2 id={`fund-${f.id}`}>{f.title}</h2>
                <dl className="fund-figures">
                  <FundFigure label={t("fund.currency")}>{f.currencyCode}</FundFigure>
                  <FundFigure label={t("fund.expected_profit")} up>
                    <Percent value={f.dividendPercentage} locale={locale} />
                  </FundFigure>
                  <FundFigure label={t("fund.machine_rent")}>
                    <FundMoney value={f.startingSubAmount} currency={f.currencyCode} locale={locale} />
                  </FundFigure>
                </dl>
              </div>
              <Link to={`/mining/subscribe?id=${f.id}`} className="button primary" aria-describedby={`fund-${f.id}`}>
                {t("fund.subscribe")}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page.page} lastPage={page.lastPage} href={(p) => `/mining?page=${p}`} label={t("orders.pages")} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
