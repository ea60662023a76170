/**
 * Trade (spec §2): contract / future tabs, header with the live price and change (or the closed
 * label), a drawer listing every instrument, the period bar, and the candlestick chart. Without
 * JavaScript the same candles render as an SVG and the period bar is plain links.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { memo, useEffect, useMemo, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { CHART_CANDLES, CandleSvg, candleFrame, chartInnerStyle } from "~/components/charts";
import { CloseIcon } from "~/components/icons";
import { EmptyState } from "~/components/layout";
import { ConnectionBadge, useCandles, useQuotes } from "~/components/live";
import { ChangeBadge, InstrumentRow, LivePrice } from "~/components/market";
import { formatPrice, formatVolume } from "~/lib/format";
import { candles, listInstruments, marketQuotes } from "~/services/market.server";
import { readTradeCode, tradeCodeCookie } from "~/services/preferences.server";
import { toSummary } from "~/domain/instrument";
import { RouteErrorBoundary } from "~/components/route-error";
import { useRootData } from "~/root";
import { DEFAULT_PERIOD, PERIODS, PERIOD_LABELS, isPeriod, type Period } from "~/domain/market";
import { afterLoadAndIdle } from "~/lib/idle";

type CandleChartModule = typeof import("~/components/candle-chart.client");
const loadCandleChart = () => import("~/components/candle-chart.client");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const list = await listInstruments(context);
  const wanted = url.searchParams.get("code") ?? (await readTradeCode(request));
  const found = wanted ? list.find((i) => i.code === wanted) : undefined;
  const current = found ?? list[0] ?? null;
  const periodParam = url.searchParams.get("period");
  const period: Period = isPeriod(periodParam) ? periodParam : DEFAULT_PERIOD;
  const tab = url.searchParams.get("tab") === "future" ? "future" : "contract";
  const notices: string[] = [];
  if (url.searchParams.get("code") && !found) notices.push("errors.unknown_instrument");
  if (periodParam && !isPeriod(periodParam)) notices.push("errors.unknown_period");
  const [market, history] = await Promise.all([marketQuotes(context), current ? candles(context, current.code, period, CHART_CANDLES) : []]);
  const body = {
    instruments: list.map(toSummary),
    current: current ? toSummary(current) : null,
    period,
    tab,
    candles: history,
    quotes: [...market.quotes.values()],
    notices,
  };
  const headers: HeadersInit = found ? { "Set-Cookie": await tradeCodeCookie.serialize(found.code) } : {};
  return data(body, { headers });
}

/**
 * The interactive chart's code, fetched once the page has loaded and the browser is idle: the
 * first paint, hydration and input never wait for it.
 */
function useCandleChart() {
  const [chart, setChart] = useState<ComponentType<Parameters<CandleChartModule["default"]>[0]> | null>(null);
  useEffect(() => {
    let cancelled = false;
    void afterLoadAndIdle()
      .then(loadCandleChart)
      .then((m) => {
        if (!cancelled) setChart(() => m.default);
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return chart;
}

/**
 * The chart: the server's SVG candles (all that visitors without JavaScript get), replaced in
 * the same box by the interactive canvas once it has drawn. The box has its final size from the
 * first paint, scrolls sideways (a named, focusable region, so keyboards reach it) and starts at
 * the latest candle (a right-to-left scroller around a left-to-right chart). Memoised: quote
 * ticks re-render the page every second, not the chart.
 */
const ChartArea = memo(function ChartArea({ candles: initial, code, period, precision, locale, label }: { candles: ReturnType<typeof useLoaderData<typeof loader>>["candles"]; code: string; period: Period; precision: number; locale: string; label: string }) {
  const live = useCandles(code, period, initial);
  const frame = useMemo(() => candleFrame(live), [live]);
  const CandleChart = useCandleChart();
  const [canvasReady, setCanvasReady] = useState(false);
  const withDate = period === "1day";
  if (frame.list.length === 0) return <EmptyState title={"—"} />;
  return (
    <div className="chart">
      <div className="chart-scroll" dir="rtl" tabIndex={0} role="region" aria-label={label}>
        <div className="chart-inner" dir="ltr" style={chartInnerStyle(frame)}>
          {canvasReady ? null : <CandleSvg frame={frame} precision={precision} locale={locale} label={label} withDate={withDate} />}
          {CandleChart ? <CandleChart frame={frame} precision={precision} locale={locale} withDate={withDate} label={label} onReady={() => setCanvasReady(true)} /> : null}
        </div>
      </div>
    </div>
  );
});

export default function Trade() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const root = useRootData();
  const locale = root?.locale ?? "en-US";
  const quotes = useQuotes(d.quotes);
  if (!d.current) return <EmptyState title={t("common.no_data")} />;
  const current = d.current;
  const quote = quotes.get(current.code);
  const open = quote?.MarketStatus === 1;
  const base = `/trade?code=${encodeURIComponent(current.code)}`;
  const loginFirst = !root?.user;
  return (
    <div className="page trade">
      <nav className="segmented" aria-label={t("trade.mode")}>
        <Link to={`${base}&period=${d.period}`} replace aria-current={d.tab === "contract" ? "page" : undefined} className={d.tab === "contract" ? "active" : ""}>
          {t("trade.contract")}
        </Link>
        <Link to={`${base}&period=${d.period}&tab=future`} replace aria-current={d.tab === "future" ? "page" : undefined} className={d.tab === "future" ? "active" : ""}>
          {t("trade.future")}
        </Link>
      </nav>
      {d.notices.map((n) => (
        <p key={n} className="notice warn" role="alert">
          {t(n)}
        </p>
      ))}
      <header className="trade-header">
        <details className="drawer">
          <summary>
            <span className="symbol">{current.showCode}</span> <span className="visually-hidden">{t("trade.instruments")}</span>
          </summary>
          <div className="drawer-panel">
          <div className="drawer-head">
            <h2>{t("trade.instruments")}</h2>
            <Link to={`${base}&period=${d.period}${d.tab === "future" ? "&tab=future" : ""}`} className="icon-button" aria-label={t("common.close")} replace>
              <CloseIcon />
            </Link>
          </div>
          <ul className="instrument-list drawer-list">
            {d.instruments.map((i) => (
              <li key={i.id}>
                <InstrumentRow instrument={i} quote={quotes.get(i.code)} locale={locale} to={`/trade?code=${encodeURIComponent(i.code)}&period=${d.period}${d.tab === "future" ? "&tab=future" : ""}`} />
              </li>
            ))}
          </ul>
          </div>
        </details>
        <div className="trade-quote">
          <LivePrice value={quote?.Close} precision={current.pricePrecision} locale={locale} className="headline-price" />
          <ChangeBadge quote={quote} locale={locale} />
        </div>
        <ConnectionBadge />
      </header>
      <nav className="period-bar" aria-label={t("trade.period")}>
        {PERIODS.map((p) => (
          <Link key={p} to={`${base}&period=${p}${d.tab === "future" ? "&tab=future" : ""}`} replace preventScrollReset aria-current={p === d.period ? "page" : undefined} className={p === d.period ? "chip active" : "chip"}>
            {PERIOD_LABELS[p]}
          </Link>
        ))}
      </nav>
      <ChartArea key={`${current.code}-${d.period}`} candles={d.candles} code={current.code} period={d.period} precision={current.pricePrecision} locale={locale} label={t("trade.chart_label", { symbol: current.showCode })} />
      {d.tab === "future" ? (
        <section className="card" aria-label={t("trade.future")}>
          <dl className="stats">
            <div><dt>{t("market.open")}</dt><dd className="num">{quote ? formatPrice(quote.Open, current.pricePrecision, locale) : "—"}</dd></div>
            <div><dt>{t("market.close")}</dt><dd className="num">{quote ? formatPrice(quote.Close, current.pricePrecision, locale) : "—"}</dd></div>
            <div><dt>{t("market.low")}</dt><dd className="num">{quote ? formatPrice(quote.Low, current.pricePrecision, locale) : "—"}</dd></div>
            <div><dt>{t("market.high")}</dt><dd className="num">{quote ? formatPrice(quote.High, current.pricePrecision, locale) : "—"}</dd></div>
          </dl>
          {open ? (
            <div className="tiles trade-buttons">
              {loginFirst ? (
                <>
                  <Link className="button buy" to={`/login?from=${encodeURIComponent(`${base}&tab=future`)}`}>{t("trade.buy_up")}</Link>
                  <Link className="button sell" to={`/login?from=${encodeURIComponent(`${base}&tab=future`)}`}>{t("trade.buy_down")}</Link>
                </>
              ) : (
                <>
                  <button type="button" className="button buy" disabled>{t("trade.buy_up")}</button>
                  <button type="button" className="button sell" disabled>{t("trade.buy_down")}</button>
                </>
              )}
            </div>
          ) : (
            <p className="closed-note" role="status">{t("trade.market_closed")}</p>
          )}
        </section>
      ) : (
        <section className="card" aria-label={t("trade.contract")}>
          <dl className="stats">
            <div><dt>{t("market.high")}</dt><dd className="num">{quote ? formatPrice(quote.High, current.pricePrecision, locale) : "—"}</dd></div>
            <div><dt>{t("market.low")}</dt><dd className="num">{quote ? formatPrice(quote.Low, current.pricePrecision, locale) : "—"}</dd></div>
            <div><dt>{t("market.volume")}</dt><dd className="num">{quote ? formatVolume(quote.Volume, locale) : "—"}</dd></div>
          </dl>
          {!open ? <p className="closed-note" role="status">{t("trade.market_closed")}</p> : null}
          <div className="tiles trade-buttons">
            {open && loginFirst ? (
              <>
                <Link className="button buy" to={`/login?from=${encodeURIComponent(base)}`}>{t("trade.buy")}</Link>
                <Link className="button sell" to={`/login?from=${encodeURIComponent(base)}`}>{t("trade.sell")}</Link>
              </>
            ) : (
              <>
                <button type="button" className="button buy" disabled>{t("trade.buy")}</button>
                <button type="button" className="button sell" disabled>{t("trade.sell")}</button>
              </>
            )}
          </div>
          {open && !loginFirst ? <p className="muted small">{t("trade.orders_soon")}</p> : null}
        </section>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
