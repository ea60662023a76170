/**
 * Ranking (spec §2 Ranking, §3 Leader; issue 11 §1): leader cards from the cached statistics
 * (rank, user, multiple, three-week rate, win rate and profit, total rate, order count, code),
 * each figure explained; tapping a card opens the trader's detail. With no trader yet, the empty
 * state says so. Public, like the spec's visitors' ranking.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Rate, SignedMoney, TraderAvatar } from "~/components/copy";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { hundredthsToPercent } from "~/domain/contract";
import { useRootData } from "~/lib/root-data";
import { leaders } from "~/services/copy/queries.server";
import copyStylesHref from "~/styles/copy.css";
import ordersStylesHref from "~/styles/orders.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "copy", "rank"] };

export const meta = titled("tabs.rank");

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: copyStylesHref },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("page") ?? "1";
  return leaders(context, /^\d{1,5}$/.test(raw) ? Number(raw) : 1);
}

export default function Rank() {
  const { t } = useTranslation();
  const { data: list, page, lastPage } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page">
      <PageHeader title={t("tabs.rank")} />
      {list.length === 0 ? (
        <EmptyState title={t("rank.empty")}>
          <p className="muted">{t("rank.empty_hint")}</p>
          <Link to="/follow/trader-apply" className="button">
            {t("copy.apply_title")}
          </Link>
        </EmptyState>
      ) : (
        <>
          <p className="muted small">{t("rank.explain")}</p>
          <details className="card rank-explain">
            <summary>{t("rank.figures_explained")}</summary>
            <dl className="small">
              {(
                [
                  ["copy.three_week_rate", "copy.explain_three_week_rate"],
                  ["copy.three_week_win", "copy.explain_three_week_win"],
                  ["copy.three_week_profit", "copy.explain_three_week_profit"],
                  ["copy.total_rate", "copy.explain_total_rate"],
                  ["copy.total_trade_num", "copy.explain_total_trade_num"],
                ] as const
              ).map(([label, explain]) => (
                <div key={label}>
                  <dt>{t(label)}</dt>
                  <dd className="muted">{t(explain)}</dd>
                </div>
              ))}
            </dl>
          </details>
          <ol className="copy-cards rank-list">
            {list.map((l) => (
              <li key={l.userId}>
                <Link to={`/follow/trader?id=${l.userId}`} className="card copy-card leader-card">
                  <span className="copy-card-head">
                    <span className="rank-number num" aria-hidden="true">
                      {l.rank}
                    </span>
                    <TraderAvatar src={l.avatar} name={l.nickname} />
                    <span className="copy-card-name">
                      <span className="leader-name">{l.nickname}</span>
                      <span className="muted small">
                        {l.code ? `${l.code} · ` : ""}
                        {l.multiple ? t("rank.multiple_value", { multiple: l.multiple }) : ""}
                      </span>
                    </span>
                  </span>
                  <span className="copy-figures leader-figures">
                    <span>
                      <span className="figure-label">{t("copy.three_week_rate")}</span>
                      <Rate value={l.threeWeekRate} />
                    </span>
                    <span>
                      <span className="figure-label">{t("copy.three_week_win")}</span>
                      <span className="num">{hundredthsToPercent(l.threeWeekWin)}%</span>
                    </span>
                    <span>
                      <span className="figure-label">{t("copy.three_week_profit")}</span>
                      <SignedMoney value={l.threeWeekProfit} locale={locale} />
                    </span>
                    <span>
                      <span className="figure-label">{t("copy.total_rate")}</span>
                      <Rate value={l.totalRate} />
                    </span>
                    <span>
                      <span className="figure-label">{t("copy.total_trade_num")}</span>
                      <span className="num">{l.totalTradeNum}</span>
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ol>
          <nav className="pager" aria-label={t("tabs.rank")}>
            {page > 1 ? <Link to={`/rank?page=${page - 1}`}>{t("copy.prev_page")}</Link> : <span />}
            <span className="muted small num">
              {page} / {lastPage}
            </span>
            {page < lastPage ? <Link to={`/rank?page=${page + 1}`}>{t("copy.next_page")}</Link> : <span />}
          </nav>
        </>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
