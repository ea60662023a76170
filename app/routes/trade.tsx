/** Trade (spec §2): instrument header, drawer list, period bar. Live prices and the chart come with the live-market issue. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "~/components/layout";
import { listInstruments } from "~/services/market.server";

export const PERIODS = [
  { key: "1min", label: "1M" },
  { key: "5min", label: "5M" },
  { key: "15min", label: "15M" },
  { key: "30min", label: "30M" },
  { key: "60min", label: "1H" },
  { key: "1day", label: "1D" },
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const list = await listInstruments(context);
  const current = list.find((i) => i.code === url.searchParams.get("code")) ?? list[0] ?? null;
  const period = PERIODS.find((p) => p.key === url.searchParams.get("period"))?.key ?? "5min";
  return { instruments: list, current, period };
}

export default function Trade() {
  const { t } = useTranslation();
  const { instruments, current, period } = useLoaderData<typeof loader>();
  if (!current) return <EmptyState title={t("common.no_data")} />;
  return (
    <div className="page trade">
      <nav className="segmented" aria-label={t("trade.mode")}>
        <span className="active" aria-current="page">
          {t("trade.contract")}
        </span>
        <span>{t("trade.future")}</span>
      </nav>
      <header className="trade-header">
        <details className="drawer">
          <summary>{current.showCode}</summary>
          <ul className="instrument-list">
            {instruments.map((i) => (
              <li key={i.id}>
                <Link to={`/trade?code=${encodeURIComponent(i.code)}&period=${period}`} className="instrument-row" aria-current={i.id === current.id ? "true" : undefined}>
                  <span className="symbol">{i.showCode}</span>
                  <span className="price num muted">—</span>
                </Link>
              </li>
            ))}
          </ul>
        </details>
        <span className="price num muted">—</span>
      </header>
      <nav className="period-bar" aria-label={t("trade.period")}>
        {PERIODS.map((p) => (
          <Link key={p.key} to={`/trade?code=${encodeURIComponent(current.code)}&period=${p.key}`} replace preventScrollReset aria-current={p.key === period ? "page" : undefined} className={p.key === period ? "chip active" : "chip"}>
            {p.label}
          </Link>
        ))}
      </nav>
      <EmptyState title={t("trade.no_market_data")} />
    </div>
  );
}
