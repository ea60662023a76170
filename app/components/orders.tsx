/**
 * Contract orders in the browser (spec §2 Orders, §3 contract order, §4 states): the list row,
 * the detail figures, and the live updates of the user's orders (FOREX_TRADE: mark price and
 * profit of each holding order and the total, every second; FOREX_CLOSED: ids the server closed
 * or cancelled). Every figure is exact: prices are integer steps, money integer micro-USD, and
 * the live numbers are read back from their decimal text, never through float arithmetic.
 */
import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, startTransition } from "react";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/components/hydrated";
import { useLiveClient } from "~/components/live";
import { hundredthsToPercent, parsePrice, riskRate, scaled6ToDecimal, stepsToDecimal } from "~/domain/contract";
import { formatMoney, parseAmount, roundMicros, type Micros } from "~/domain/money";
import type { OrderView } from "~/services/contract/views";

/** A contract order as the server answers it (with its figures), as the pages show it. */
export function orderViewOf(
  o: Omit<OrderView, "profit" | "copiedFrom"> & { currentProfit: Micros },
  copiedFrom: string | null = null,
): OrderView {
  return {
    id: o.id,
    code: o.code,
    showCode: o.showCode,
    side: o.side,
    status: o.status,
    lots: o.lots,
    precision: o.precision,
    leverage: o.leverage,
    originPrice: o.originPrice,
    openPrice: o.openPrice,
    closePrice: o.closePrice,
    markPrice: o.markPrice,
    stopLoss: o.stopLoss,
    takeProfit: o.takeProfit,
    liquidation: o.liquidation,
    margin: o.margin,
    fee: o.fee,
    profit: o.currentProfit,
    closeReason: o.closeReason,
    createdAt: o.createdAt,
    filledAt: o.filledAt,
    closedAt: o.closedAt,
    copiedFrom,
  };
}

export const ORDER_STATUS = { Pending: 0, Holding: 1, Closed: 3, Cancelled: 4 } as const;
const REASONS = new Set(["trader_close", "copy_stop", "manual", "stop_loss", "take_profit", "liquidation", "delivery", "reset", "cancel"]);

// ---- exact display ----

/** A price (steps) at its precision with the locale's grouping, exactly. */
export function formatSteps(steps: number, precision: number, locale: string): string {
  // steps of 10^-precision are micros × 10^(precision-6): exact while precision ≤ 6
  return precision <= 6 ? formatMoney(steps * 10 ** (6 - precision), locale, precision) : stepsToDecimal(steps, precision);
}

/** Money with 2 decimals, or as many (up to 6) as it has: margins and fees are kept to the micro. */
export function formatAmount(value: Micros, locale: string): string {
  let decimals = 2;
  while (decimals < 6 && roundMicros(value, decimals) !== value) decimals += 1;
  return formatMoney(value, locale, decimals);
}

/** A profit with its sign (colour is never the only signal): "+1.25", "-0.40", "0.00". */
export function formatProfit(value: Micros, locale: string): string {
  const text = formatMoney(value, locale, 2);
  return roundMicros(value, 2) > 0 ? `+${text}` : text;
}

export function profitClass(value: Micros): "up" | "down" {
  return value >= 0 ? "up" : "down";
}

/** A live number (2-decimal money) as micros, read from its decimal text; null when unreadable. */
export function liveMicros(value: unknown): Micros | null {
  // amounts travel as exact decimal strings ("-12.50"); a number is accepted from older servers
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value);
  const negative = text.startsWith("-");
  const micros = parseAmount(negative ? text.slice(1) : text, 6);
  return micros === null ? null : negative ? -micros : micros;
}

/** A live price as steps of the order's precision, read from its decimal text; null when unreadable. */
export function liveSteps(value: unknown, precision: number): number | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return null;
  return parsePrice(String(value), precision);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function formatTime(ms: number, locale: string, timeZone: string | undefined): string {
  const key = `${locale}|${timeZone ?? ""}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZone,
      timeZoneName: "short",
    });
    dateFormats.set(key, f);
  }
  return f.format(ms);
}

/**
 * An instant as a <time>: the server (and the first render in the browser) writes it in UTC;
 * once hydrated, the browser writes it in the user's own time zone (each says which).
 */
export function OrderTime({ ms, locale }: { ms: number; locale: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={new Date(ms).toISOString()} className="num">
      {formatTime(ms, locale, hydrated ? undefined : "UTC")}
    </time>
  );
}

// ---- live updates ----

interface LiveFigure {
  price: number;
  profit: string | number;
}

export interface LiveOrders {
  /** The order with its latest pushed mark price and profit (holding orders only). */
  apply: (order: OrderView) => OrderView;
  /** The latest pushed total of the holding list (all_fact_profits), null until one arrives. */
  total: Micros | null;
  /** Ids the server closed or cancelled since this page loaded. */
  closed: ReadonlySet<number>;
}

/**
 * The user's live order figures: FOREX_TRADE (per-order UpdatePrice / FactProfits and
 * all_fact_profits) and FOREX_CLOSED (ids). `onClosed` hears each batch of closed ids. `resetKey`
 * changes when the page's snapshot is reloaded: the pushed total starts over from it.
 */
export function useLiveOrders(onClosed?: (ids: number[]) => void, resetKey?: unknown): LiveOrders {
  const client = useLiveClient();
  const [figures, setFigures] = useState<Map<number, LiveFigure>>(() => new Map());
  const [total, setTotal] = useState<Micros | null>(null);
  const [closed, setClosed] = useState<ReadonlySet<number>>(() => new Set());
  const closedRef = useRef(onClosed);
  closedRef.current = onClosed;
  useEffect(() => setTotal(null), [resetKey]);
  useEffect(() => {
    if (!client) return;
    const offTrade = client.subscribe("FOREX_TRADE", (data) => {
      const d = data as { all_fact_profits?: unknown; list?: unknown };
      if (!d || !Array.isArray(d.list)) return;
      const next = new Map<number, LiveFigure>();
      for (const item of d.list as { Id?: unknown; UpdatePrice?: unknown; FactProfits?: unknown }[]) {
        if (
          typeof item?.Id === "number" &&
          typeof item.UpdatePrice === "number" &&
          (typeof item.FactProfits === "string" || typeof item.FactProfits === "number")
        )
          next.set(item.Id, { price: item.UpdatePrice, profit: item.FactProfits });
      }
      const sum = liveMicros(d.all_fact_profits);
      startTransition(() => {
        setFigures((prev) => new Map([...prev, ...next]));
        if (sum !== null) setTotal(sum);
      });
    });
    const offClosed = client.subscribe("FOREX_CLOSED", (data) => {
      if (!Array.isArray(data)) return;
      const ids = data.filter((id): id is number => typeof id === "number");
      if (ids.length === 0) return;
      setClosed((prev) => new Set([...prev, ...ids]));
      closedRef.current?.(ids);
    });
    return () => {
      offTrade();
      offClosed();
    };
  }, [client]);
  const apply = (order: OrderView): OrderView => {
    if (order.status !== ORDER_STATUS.Holding) return order;
    const live = figures.get(order.id);
    if (!live) return order;
    const mark = liveSteps(live.price, order.precision);
    const profit = liveMicros(live.profit);
    return { ...order, markPrice: mark ?? order.markPrice, profit: profit ?? order.profit };
  };
  return { apply, total, closed };
}

// ---- the row ----

function SideBadge({ side }: { side: number }) {
  const { t } = useTranslation();
  const buy = side === 1;
  return <span className={`side-badge ${buy ? "buy" : "sell"}`}>{t(buy ? "trade.buy" : "trade.sell")}</span>;
}

function Price({ steps, precision, locale }: { steps: number | null; precision: number; locale: string }) {
  return <span className="num">{steps === null || steps === 0 ? "—" : formatSteps(steps, precision, locale)}</span>;
}

function Profit({ value, locale }: { value: Micros; locale: string }) {
  return <span className={`num ${profitClass(value)}`}>{formatProfit(value, locale)}</span>;
}

/**
 * One order in a list, as a link that opens its detail sheet: instrument, side, lots, open (or
 * buy) price, current (or close) price, profit, time. With `to` null, a row without a detail to
 * open (someone else's order, e.g. a trader's history).
 */
export function OrderRow({ order, to, locale }: { order: OrderView; to: string | null; locale: string }) {
  const { t } = useTranslation();
  const pending = order.status === ORDER_STATUS.Pending;
  const open = order.status === ORDER_STATUS.Holding || pending;
  const cancelled = order.status === ORDER_STATUS.Cancelled;
  const content = (
    <>
      <span className="order-row-head">
        <span className="symbol">{order.showCode}</span>
        <SideBadge side={order.side} />
        <span className="muted small num">{t("orders.lots_value", { value: scaled6ToDecimal(order.lots) })}</span>
        {cancelled ? <span className="badge">{t("orders.status_4")}</span> : null}
        {order.copiedFrom ? <span className="badge copied-badge">{t("copy.copied_from", { name: order.copiedFrom })}</span> : null}
      </span>
      <span className="order-figures">
        <span>
          <span className="figure-label">{t(pending ? "orders.buy_price" : "orders.open_price")}</span>
          <Price steps={pending ? order.originPrice : order.openPrice} precision={order.precision} locale={locale} />
        </span>
        <span>
          <span className="figure-label">{t(open ? "orders.current_price" : "orders.close_price")}</span>
          <Price steps={open ? order.markPrice : order.closePrice} precision={order.precision} locale={locale} />
        </span>
        <span>
          <span className="figure-label">{t("orders.profit")}</span>
          {pending || cancelled ? <span className="num">—</span> : <Profit value={order.profit} locale={locale} />}
        </span>
      </span>
      <span className="order-row-time muted small">
        <OrderTime ms={open ? order.createdAt : (order.closedAt ?? order.createdAt)} locale={locale} />
      </span>
    </>
  );
  if (to === null)
    return (
      <div className="order-row" data-order-id={order.id}>
        {content}
      </div>
    );
  return (
    <Link to={to} className="order-row" preventScrollReset data-order-id={order.id}>
      {content}
    </Link>
  );
}

// ---- the detail ----

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Every spec §3 field that applies to the order, as a description list. */
export function OrderDetail({ order, locale }: { order: OrderView; locale: string }) {
  const { t } = useTranslation();
  const pending = order.status === ORDER_STATUS.Pending;
  const holding = order.status === ORDER_STATUS.Holding;
  const closed = order.status === ORDER_STATUS.Closed;
  const risk = holding ? riskRate(order.margin, order.profit) : null;
  const level = (steps: number) => (steps > 0 ? formatSteps(steps, order.precision, locale) : t("orders.not_set"));
  return (
    <dl className="details order-details">
      <Item label={t("orders.instrument")}>
        <span className="symbol">{order.showCode}</span> <SideBadge side={order.side} />
      </Item>
      <Item label={t("orders.status_label")}>{t(`orders.status_${order.status}`)}</Item>
      <Item label={t("orders.quantity")}>
        <span className="num">{scaled6ToDecimal(order.lots)}</span>
      </Item>
      <Item label={t("orders.leverage")}>
        <span className="num">{order.leverage > 0 ? t("orders.leverage_value", { value: order.leverage }) : "—"}</span>
      </Item>
      {pending || order.openPrice === null ? (
        <Item label={t("orders.buy_price")}>
          <Price steps={order.originPrice} precision={order.precision} locale={locale} />
        </Item>
      ) : (
        <Item label={t("orders.open_price")}>
          <Price steps={order.openPrice} precision={order.precision} locale={locale} />
        </Item>
      )}
      {closed ? (
        <Item label={t("orders.close_price")}>
          <Price steps={order.closePrice} precision={order.precision} locale={locale} />
        </Item>
      ) : pending || holding ? (
        <Item label={t("orders.current_price")}>
          <Price steps={order.markPrice} precision={order.precision} locale={locale} />
        </Item>
      ) : null}
      <Item label={t("orders.margin")}>
        <span className="num">{formatAmount(order.margin, locale)}</span>
      </Item>
      <Item label={t("orders.fee")}>
        <span className="num">{formatAmount(order.fee, locale)}</span>
      </Item>
      <Item label={t("orders.stop_loss")}>
        <span className="num">{level(order.stopLoss)}</span>
      </Item>
      <Item label={t("orders.take_profit")}>
        <span className="num">{level(order.takeProfit)}</span>
      </Item>
      <Item label={t("orders.liquidation")}>
        <span className="num">{level(order.liquidation)}</span>
      </Item>
      {holding || closed ? (
        <Item label={t("orders.profit")}>
          <Profit value={order.profit} locale={locale} />
        </Item>
      ) : null}
      {holding ? (
        <Item label={t("orders.risk_rate")}>
          <span className="num">{risk === null ? "—" : `${hundredthsToPercent(risk)}%`}</span>
        </Item>
      ) : null}
      {order.closeReason && REASONS.has(order.closeReason) ? (
        <Item label={t("orders.reason")}>{t(`orders.reason_${order.closeReason}`)}</Item>
      ) : null}
      <Item label={t("orders.order_id")}>
        <span className="num">{order.id}</span>
      </Item>
      <Item label={t("orders.created_at")}>
        <OrderTime ms={order.createdAt} locale={locale} />
      </Item>
      {order.filledAt !== null ? (
        <Item label={t("orders.filled_at")}>
          <OrderTime ms={order.filledAt} locale={locale} />
        </Item>
      ) : null}
      {order.closedAt !== null ? (
        <Item label={t("orders.closed_at")}>
          <OrderTime ms={order.closedAt} locale={locale} />
        </Item>
      ) : null}
    </dl>
  );
}
