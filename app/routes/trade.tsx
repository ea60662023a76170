/**
 * Trade (spec §2): contract / future tabs, header with the live price and change (or the closed
 * label) and, for delivery contracts, the next delivery; a drawer listing every instrument, the
 * period bar with the candle's countdown, the candlestick chart with the levels of the user's
 * orders, the contract order form (issue 8 §1) and the user's open orders on the instrument.
 * Without JavaScript the same candles render as an SVG, the period bar is plain links and the
 * order form is a plain POST (post/redirect/get to the order-confirmed popup). From 1024 px the
 * chart, the form and the open orders stand side by side.
 */
import { getValibotConstraint } from "@conform-to/valibot";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { memo, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useTranslation } from "~/i18n/react";
import { CHART_CANDLES, CandleSvg, candleFrame, chartInnerStyle, type ChartLevel } from "~/components/charts";
import { CloseIcon } from "~/components/icons";
import { EmptyState } from "~/components/layout";
import { ConnectionBadge, useCandles, useQuotes, useValueFeed } from "~/components/live";
import { ChangeBadge, InstrumentRow, LivePrice } from "~/components/market";
import { OrderForm } from "~/components/order-form";
import {
  CandleCountdown,
  DeliveryInfo,
  OpenOrders,
  PlacedDialog,
  orderLevels,
  type OpenOrder,
  type PlacedOrder,
} from "~/components/trade-panels";
import { levelEdge } from "~/lib/chart-levels";
import { formatPrice, formatVolume } from "~/lib/format";
import { candles, listInstruments, marketQuotes } from "~/services/market.server";
import { readTradeCode, tradeCodeCookie } from "~/services/preferences.server";
import { placeMyOrder } from "~/services/contract/commands.server";
import { feeMode, myHoldingsOn, myOrder, termsOf } from "~/services/contract/queries.server";
import { serves } from "~/lib/upstream-areas";
import type { ContractOrderRow } from "~/services/contract/views";
import { requireUser, valueOf } from "~/services/web.server";
import { leverages, toSummary } from "~/domain/instrument";
import { nextDelivery, scaled6ToDecimal } from "~/domain/contract";
import type { OrderFormTerms } from "~/domain/order-form";
import { OrderSchema, orderCommandOf, orderErrorsOf } from "~/forms/trade";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { pageMeta } from "~/lib/meta";
import { RouteErrorBoundary } from "~/components/route-error";
import { useRootData, useServes } from "~/lib/root-data";
import { DEFAULT_PERIOD, PERIODS, PERIOD_LABELS, isPeriod, priceToSteps, type Period } from "~/domain/market";
import tradeStylesHref from "~/styles/trade.css";
import optionsStylesHref from "~/styles/options.css";
import { BoughtDialog, OptionForm } from "~/components/option-form";
import { OpenOptions } from "~/components/options";
import { buyMyOption } from "~/services/option/commands.server";
import { myOpenOptionsOn, myOptionDetail, optionTerms } from "~/services/option/queries.server";
import type { BoughtOptionView } from "~/services/option/views";
import { OptionSchema, buyCommandOf, buyErrorsOf } from "~/forms/option";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "contract", "copy", "market", "option", "options", "orders", "trade"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStylesHref },
  { rel: "stylesheet", href: optionsStylesHref },
];

function openOrderOf(row: ContractOrderRow): OpenOrder {
  return {
    id: row.id,
    side: row.side,
    status: row.status,
    lots: scaled6ToDecimal(row.lots),
    price: row.openPrice ?? row.originPrice,
    stopLoss: row.stopLoss,
    takeProfit: row.takeProfit,
    liquidation: row.liquidation,
    precision: row.precision,
  };
}

/**
 * "BTC/USDT 99,329.06 · Bourse": the instrument and the price the page rendered with, formatted as
 * its headline shows it (the title does not follow the live price).
 */
export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t, locale) => {
    const current = d?.current;
    if (!current) return { title: t("tabs.trade") };
    const quote = d.quotes.find((q) => q.Code === current.code);
    const price = quote ? ` ${formatPrice(quote.Close, current.pricePrecision, locale)}` : "";
    return { title: `${current.showCode}${price}`, description: t("trade.meta_description", { instrument: current.showCode }) };
  });

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
  // upstream mode does not serve timed options yet (lib/upstream-areas.ts): the contract tab
  const tab =
    url.searchParams.get("tab") === "future" && serves(context.config.platform.kind, `/trade${url.search}`) ? "future" : "contract";
  const notices: string[] = [];
  if (url.searchParams.get("code") && !found) notices.push("errors.unknown_instrument");
  if (periodParam && !isPeriod(periodParam)) notices.push("errors.unknown_period");
  const user = await context.user();
  const placedId = url.searchParams.get("placed");
  const boughtId = url.searchParams.get("bought");
  const [market, history, mode, holdings, placedRow, optionTermsRow, boughtRow, openOptionRows] = await Promise.all([
    marketQuotes(context),
    current ? candles(context, current.code, period, CHART_CANDLES) : [],
    feeMode(context),
    user && current ? myHoldingsOn(context, user.id, current.code).then((read) => valueOf(context, request, read)) : null,
    // only the owner's order shows (another user's id shows nothing)
    user && placedId && /^\d{1,15}$/.test(placedId)
      ? myOrder(context, user.id, Number(placedId)).then((read) => valueOf(context, request, read))
      : null,
    tab === "future" ? optionTerms(context) : null,
    // only the owner's option shows (another user's id shows nothing)
    user && boughtId && /^\d{1,15}$/.test(boughtId)
      ? myOptionDetail(context, user.id, Number(boughtId)).then((read) => valueOf(context, request, read))
      : null,
    user && current && tab === "future"
      ? myOpenOptionsOn(context, user.id, current.code).then((read) => valueOf(context, request, read))
      : null,
  ]);
  const bought: BoughtOptionView | null = boughtRow
    ? {
        id: boughtRow.id,
        showCode: boughtRow.showCode,
        direction: boughtRow.direction,
        amount: boughtRow.amount,
        seconds: boughtRow.seconds,
        profitRatio: boughtRow.profitRatio,
        openPrice: boughtRow.openPrice,
        precision: boughtRow.precision,
        expiresAt: boughtRow.expiresAt,
      }
    : null;
  const terms = current ? termsOf(current, mode) : null;
  // The current instrument's trading terms only (not every instrument's configuration).
  const order: OrderFormTerms | null =
    current && terms ? { terms, lotStep: current.lotStep, minLots: current.minLots, leverages: leverages(current) } : null;
  const now = Date.now();
  const placed: PlacedOrder | null = placedRow
    ? {
        ...openOrderOf(placedRow),
        showCode: list.find((i) => i.code === placedRow.code)?.showCode ?? placedRow.code,
        leverage: placedRow.leverage,
        margin: placedRow.margin,
        fee: placedRow.fee,
      }
    : null;
  const body = {
    instruments: list.map(toSummary),
    current: current ? toSummary(current) : null,
    period,
    tab,
    candles: history,
    quotes: [...market.quotes.values()],
    notices,
    order,
    delivery:
      current && current.deliveryDays > 0
        ? { days: current.deliveryDays, at: current.deliveryAt ?? nextDelivery(current.deliveryDays, now) }
        : null,
    holdings: holdings ? holdings.map(openOrderOf) : null,
    openOptions: openOptionRows
      ? openOptionRows.map((o) => ({ id: o.id, direction: o.direction, amount: o.amount, expiresAt: o.expiresAt }))
      : null,
    placed,
    /** The order form's one-time token (a double submission places one order). */
    requestId: user ? crypto.randomUUID() : null,
    constraint: getValibotConstraint(OrderSchema),
    optionTerms: optionTermsRow,
    bought,
    optionConstraint: getValibotConstraint(OptionSchema),
    renderedAt: now,
  };
  const headers: HeadersInit = found ? { "Set-Cookie": await tradeCodeCookie.serialize(found.code) } : {};
  return data(body, { headers });
}

/** Refusals that depend on the moment, not on the input, answer 409 (the service says which); others 400. */
const refusalStatus = (status: number) => (status === 409 ? 409 : 400);

/**
 * Places a contract order (visitors go to the login first). A refusal re-renders the form with
 * the message next to its field and the values kept; success redirects (303) to the trade page
 * with the order-confirmed popup.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  if (url.searchParams.get("tab") === "future") {
    if (!serves(context.config.platform.kind, `/trade${url.search}`)) throw new Response("Not found", { status: 404 });
    return buyAction(context, user.id, await readForm(request));
  }
  const submission = submissionOf(OrderSchema, await readForm(request));
  if (submission.status !== "success") return data({ result: submission.reply(), form: "order" as const }, { status: 400 });
  const result = await placeMyOrder(context, user, orderCommandOf(submission.value));
  if (!result.ok) {
    return data(
      { result: replyWithErrors(submission, orderErrorsOf(result.errors)), form: "order" as const },
      { status: refusalStatus(result.status) },
    );
  }
  const period = url.searchParams.get("period");
  const to = `/trade?code=${encodeURIComponent(result.value.code)}${isPeriod(period) && period !== DEFAULT_PERIOD ? `&period=${period}` : ""}&placed=${result.value.id}`;
  return redirect(to, 303);
}

/**
 * Buys a timed option (the future tab's form). A refusal re-renders the form with the message
 * next to its field and the values kept; success redirects (303) to the future tab with the
 * option-bought popup.
 */
async function buyAction(context: ActionFunctionArgs["context"], userId: number, form: Awaited<ReturnType<typeof readForm>>) {
  const submission = submissionOf(OptionSchema, form);
  if (submission.status !== "success") return data({ result: submission.reply(), form: "option" as const }, { status: 400 });
  const result = await buyMyOption(context, userId, buyCommandOf(submission.value));
  if (!result.ok) {
    return data(
      { result: replyWithErrors(submission, buyErrorsOf(result.errors)), form: "option" as const },
      { status: refusalStatus(result.status) },
    );
  }
  return redirect(`/trade?code=${encodeURIComponent(result.value.code)}&tab=future&bought=${result.value.id}`, 303);
}

/** The interactive chart's module once loaded: later charts (another period, another visit) use it at once. */
let candleChartModule: CandleChartModule | null = null;

/** What shows that the user reaches for the chart itself: a pointer over it, a touch, a wheel, the keyboard's focus. */
const CHART_INTENT = ["pointerenter", "pointerdown", "touchstart", "wheel", "focusin"] as const;

/**
 * The interactive chart's code (chart.js), fetched when the user first reaches for the chart: until
 * then the server's SVG is the chart, kept live from the same candles, so a visit that only reads
 * prices and trades never downloads or runs chart.js (its evaluation was the page's longest task).
 * Once loaded, every later chart uses it at once.
 */
function useCandleChart(box: RefObject<HTMLElement>, shown: boolean) {
  const [chart, setChart] = useState<CandleChartModule["default"] | null>(() => candleChartModule?.default ?? null);
  useEffect(() => {
    const el = box.current;
    if (chart || !el) return;
    let cancelled = false;
    const load = () => {
      for (const type of CHART_INTENT) el.removeEventListener(type, load);
      void loadCandleChart().then((m) => {
        candleChartModule = m;
        if (!cancelled) setChart(() => m.default);
      });
    };
    for (const type of CHART_INTENT) el.addEventListener(type, load, { passive: true });
    return () => {
      cancelled = true;
      for (const type of CHART_INTENT) el.removeEventListener(type, load);
    };
  }, [box, chart, shown]);
  return chart;
}

/**
 * The chart: the server's SVG candles (all that visitors without JavaScript get), replaced in
 * the same box by the interactive canvas once it has drawn. The box has its final size from the
 * first paint, scrolls sideways (a named, focusable region, so keyboards reach it) and starts at
 * the latest candle (a right-to-left scroller around a left-to-right chart). Memoised: quote
 * ticks re-render the page every second, not the chart.
 */
const ChartArea = memo(function ChartArea({
  candles: initial,
  code,
  period,
  precision,
  locale,
  label,
  levels,
}: {
  candles: ReturnType<typeof useLoaderData<typeof loader>>["candles"];
  code: string;
  period: Period;
  precision: number;
  locale: string;
  label: string;
  levels: ChartLevel[];
}) {
  const { t } = useTranslation();
  const live = useCandles(code, period, initial);
  const frame = useMemo(() => candleFrame(live), [live]);
  const box = useRef<HTMLDivElement>(null);
  const CandleChart = useCandleChart(box, frame.list.length > 0);
  const [canvasReady, setCanvasReady] = useState(false);
  const withDate = period === "1day";
  if (frame.list.length === 0) return <EmptyState title={"—"} />;
  return (
    <div className="chart" ref={box}>
      <div className="chart-scroll" dir="rtl" tabIndex={0} role="region" aria-label={label}>
        <div className="chart-inner" dir="ltr" style={chartInnerStyle(frame)}>
          {canvasReady ? null : (
            <CandleSvg frame={frame} precision={precision} locale={locale} label={label} withDate={withDate} levels={levels} />
          )}
          {CandleChart ? (
            <CandleChart
              frame={frame}
              precision={precision}
              locale={locale}
              withDate={withDate}
              label={label}
              levels={levels}
              onReady={() => setCanvasReady(true)}
            />
          ) : null}
        </div>
      </div>
      {levels.length > 0 ? (
        // what the chart draws, for screen readers: each level, and whether it lies off the chart (an edge marker)
        <ul className="visually-hidden" aria-label={t("trade.levels")}>
          {levels.map((l) => {
            const edge = levelEdge(l.price, frame);
            return (
              <li key={l.key} data-level={l.kind} data-edge={edge ?? "none"}>
                {edge === null ? l.description : t(edge === "top" ? "trade.level_above" : "trade.level_below", { item: l.description })}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
});

export default function Trade() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const root = useRootData();
  const served = useServes();
  const locale = root?.locale ?? "en-US";
  const quotes = useQuotes(d.quotes);
  // each tab draws its own lines: the contract's orders on the contract tab, none of them on the future tab
  const levels = useMemo(() => (d.tab === "contract" ? orderLevels(d.holdings ?? [], t, locale) : []), [d.tab, d.holdings, t, locale]);
  // the order form's price (steps) as a feed: a tick re-renders its preview, not the whole form
  const currentQuote = d.current ? quotes.get(d.current.code) : undefined;
  const priceFeed = useValueFeed(d.current && currentQuote ? priceToSteps(currentQuote.Close, d.current.pricePrecision) : null);
  if (!d.current) return <EmptyState title={t("common.no_data")} />;
  const current = d.current;
  const quote = quotes.get(current.code);
  const open = quote?.MarketStatus === 1;
  const base = `/trade?code=${encodeURIComponent(current.code)}`;
  const here = d.period === DEFAULT_PERIOD ? base : `${base}&period=${d.period}`;
  const loginHref = `/login?from=${encodeURIComponent(here)}`;
  const loginFirst = !root?.user;
  return (
    <div className="page trade">
      <nav className="segmented trade-tabs" aria-label={t("trade.mode")}>
        <Link
          to={`${base}&period=${d.period}`}
          replace
          aria-current={d.tab === "contract" ? "page" : undefined}
          className={d.tab === "contract" ? "active" : ""}
        >
          {t("trade.contract")}
        </Link>
        {served(`/trade?tab=future`) ? (
          <Link
            to={`${base}&period=${d.period}&tab=future`}
            replace
            aria-current={d.tab === "future" ? "page" : undefined}
            className={d.tab === "future" ? "active" : ""}
          >
            {t("trade.future")}
          </Link>
        ) : null}
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
              <Link
                to={`${base}&period=${d.period}${d.tab === "future" ? "&tab=future" : ""}`}
                className="icon-button"
                aria-label={t("common.close")}
                replace
              >
                <CloseIcon />
              </Link>
            </div>
            <ul className="instrument-list drawer-list">
              {d.instruments.map((i) => (
                <li key={i.id}>
                  <InstrumentRow
                    instrument={i}
                    quote={quotes.get(i.code)}
                    locale={locale}
                    to={`/trade?code=${encodeURIComponent(i.code)}&period=${d.period}${d.tab === "future" ? "&tab=future" : ""}`}
                  />
                </li>
              ))}
            </ul>
          </div>
        </details>
        <div className="trade-quote">
          <LivePrice value={quote?.Close} precision={current.pricePrecision} locale={locale} className="headline-price" />
          <ChangeBadge quote={quote} locale={locale} />
        </div>
        <DeliveryInfo key={current.code} delivery={d.delivery} renderedAt={d.renderedAt} locale={locale} />
        <ConnectionBadge />
      </header>
      <div className="trade-chart">
        <div className="period-row">
          <nav className="period-bar" aria-label={t("trade.period")}>
            {PERIODS.map((p) => (
              <Link
                key={p}
                to={`${base}&period=${p}${d.tab === "future" ? "&tab=future" : ""}`}
                replace
                preventScrollReset
                aria-current={p === d.period ? "page" : undefined}
                className={p === d.period ? "chip active" : "chip"}
              >
                {PERIOD_LABELS[p]}
              </Link>
            ))}
          </nav>
          <CandleCountdown period={d.period} renderedAt={d.renderedAt} />
        </div>
        <ChartArea
          key={`${current.code}-${d.period}`}
          candles={d.candles}
          code={current.code}
          period={d.period}
          precision={current.pricePrecision}
          locale={locale}
          label={t("trade.chart_label", { symbol: current.showCode })}
          levels={levels}
        />
      </div>
      {d.tab === "future" ? (
        <section className="card trade-panel" aria-label={t("trade.future")}>
          <dl className="stats">
            <div>
              <dt>{t("market.open")}</dt>
              <dd className="num">{quote ? formatPrice(quote.Open, current.pricePrecision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("market.close")}</dt>
              <dd className="num">{quote ? formatPrice(quote.Close, current.pricePrecision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("market.low")}</dt>
              <dd className="num">{quote ? formatPrice(quote.Low, current.pricePrecision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("market.high")}</dt>
              <dd className="num">{quote ? formatPrice(quote.High, current.pricePrecision, locale) : "—"}</dd>
            </div>
          </dl>
          {open && d.optionTerms ? (
            <OptionForm
              key={current.code}
              action={`${base}&period=${d.period}&tab=future`}
              instrumentId={current.id}
              terms={d.optionTerms}
              requestId={loginFirst ? null : d.requestId}
              loginHref={`/login?from=${encodeURIComponent(`${base}&tab=future`)}`}
              lastResult={actionData?.form === "option" ? actionData.result : undefined}
              constraint={d.optionConstraint}
              locale={locale}
            />
          ) : (
            <p className="closed-note" role="status">
              {t("trade.market_closed")}
            </p>
          )}
        </section>
      ) : (
        <section className="card trade-panel" aria-labelledby="order-form-title">
          <h2 id="order-form-title" className="visually-hidden">
            {t("trade.order_form")}
          </h2>
          <dl className="stats">
            <div>
              <dt>{t("market.high")}</dt>
              <dd className="num">{quote ? formatPrice(quote.High, current.pricePrecision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("market.low")}</dt>
              <dd className="num">{quote ? formatPrice(quote.Low, current.pricePrecision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("market.volume")}</dt>
              <dd className="num">{quote ? formatVolume(quote.Volume, locale) : "—"}</dd>
            </div>
          </dl>
          <OrderForm
            key={current.code}
            action={here}
            instrumentId={current.id}
            precision={current.pricePrecision}
            order={d.order}
            open={quote?.MarketStatus === 1}
            price={priceFeed}
            requestId={d.requestId}
            loginHref={loginHref}
            lastResult={actionData?.form === "order" ? actionData.result : undefined}
            constraint={d.constraint}
            locale={locale}
          />
        </section>
      )}
      {d.tab === "future" ? (
        <OpenOptions
          options={d.openOptions}
          locale={locale}
          loginHref={`/login?from=${encodeURIComponent(`${base}&tab=future`)}`}
          renderedAt={d.renderedAt}
        />
      ) : (
        <OpenOrders orders={d.holdings} locale={locale} loginHref={loginHref} />
      )}
      {d.placed ? <PlacedDialog order={d.placed} locale={locale} closeHref={here} /> : null}
      {d.bought ? <BoughtDialog option={d.bought} locale={locale} closeHref={`${base}&tab=future`} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
