/**
 * The trade page's smaller parts (issue 8 §1, §4): the open-orders panel, the order-confirmed
 * popup, the chart levels of the user's orders, the candle's countdown and the delivery
 * contract's date. Everything renders on the server; clocks tick with JavaScript (their first
 * render uses the server's time, so hydration matches).
 */
import { Link, useRevalidator } from "@remix-run/react";
import { useLiveClient } from "~/components/live";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import type { ChartLevel } from "~/components/charts";
import { nextDelivery } from "~/domain/contract";
import { candleEnd, stepsToPrice, type Period } from "~/domain/market";
import { formatMoney } from "~/domain/money";
import { MARKET_TIME_ZONE } from "~/domain/trading-hours";
import { countdownParts, formatPrice } from "~/lib/format";

/** One of the user's pending or holding orders on the instrument. */
export interface OpenOrder {
  id: number;
  side: 1 | 2;
  /** 0 pending, 1 holding. */
  status: number;
  lots: string;
  /** The open price (holding) or buy price (pending), in steps. */
  price: number;
  stopLoss: number;
  takeProfit: number;
  liquidation: number;
  precision: number;
}

/** The order just placed, as the confirmation shows it. */
export interface PlacedOrder extends OpenOrder {
  showCode: string;
  leverage: number;
  margin: number;
  fee: number;
}

/** The detail sheet of an order on /order (holding or pending tab). */
export function orderHref(order: Pick<OpenOrder, "id" | "status">) {
  return `/order?source=0&type=${order.status === 0 ? 0 : 1}&detail=${order.id}`;
}

function priceText(steps: number, precision: number, locale: string) {
  return formatPrice(stepsToPrice(steps, precision), precision, locale);
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** The chart's lines for the orders, each with its accessible description. */
export function orderLevels(orders: OpenOrder[], t: T, locale: string): ChartLevel[] {
  const levels: ChartLevel[] = [];
  for (const o of orders) {
    const kinds: [ChartLevel["kind"], number, string][] = [
      [o.status === 0 ? "pending" : "open", o.price, o.status === 0 ? "trade.level_pending" : "trade.level_open"],
      ["sl", o.stopLoss, "trade.level_sl"],
      ["tp", o.takeProfit, "trade.level_tp"],
      ["liq", o.liquidation, "trade.level_liq"],
    ];
    for (const [kind, steps, key] of kinds) {
      if (!(steps > 0)) continue;
      const price = priceText(steps, o.precision, locale);
      levels.push({
        key: `${o.id}-${kind}`,
        kind,
        price: stepsToPrice(steps, o.precision),
        label: `${t(key)} ${price}`,
        description: t("trade.level_item", { side: t(o.side === 1 ? "trade.buy" : "trade.sell"), lots: o.lots, level: t(key), price }),
      });
    }
  }
  return levels;
}

/**
 * With JavaScript, the page reloads its data when the server moves one of these orders: a close
 * or cancel (FOREX_CLOSED), or a pending order that filled (it appears in FOREX_TRADE), so the
 * list and the chart's lines follow the engine.
 */
function useOrderChanges(orders: OpenOrder[] | null) {
  const client = useLiveClient();
  const { revalidate, state } = useRevalidator();
  const ref = useRef({ orders, state });
  ref.current = { orders, state };
  useEffect(() => {
    if (!client) return;
    const mine = (ids: unknown[], wanted: (o: OpenOrder) => boolean) =>
      (ref.current.orders ?? []).some((o) => wanted(o) && ids.includes(o.id));
    const refresh = () => {
      if (ref.current.state === "idle") revalidate();
    };
    const offClosed = client.subscribe("FOREX_CLOSED", (data) => {
      if (Array.isArray(data) && mine(data, () => true)) refresh();
    });
    const offTrade = client.subscribe("FOREX_TRADE", (data) => {
      const list = (data as { list?: { Id?: unknown }[] } | null)?.list;
      if (
        Array.isArray(list) &&
        mine(
          list.map((i) => i?.Id),
          (o) => o.status === 0,
        )
      )
        refresh();
    });
    return () => {
      offClosed();
      offTrade();
    };
  }, [client, revalidate]);
}

/**
 * The trade page's side panel of the user's open items on this instrument: a login link for
 * visitors (`rows` null), an empty note, or the rows (each a link to its detail). Shared by the
 * contract tab's open orders and the future tab's options in transaction.
 */
export function OpenItemsPanel({
  id,
  title,
  empty,
  loginHref,
  rows,
}: {
  id: string;
  title: string;
  empty: string;
  loginHref: string;
  rows: { key: number; to: string; content: ReactNode }[] | null;
}) {
  const { t } = useTranslation();
  return (
    <section className="card open-orders" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows === null ? (
        <p className="muted">
          <Link to={loginHref}>{t("trade.login_for_orders")}</Link>
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="rows">
          {rows.map((r) => (
            <li key={r.key}>
              <Link to={r.to} className="row open-order">
                {r.content}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The user's pending and holding orders on this instrument (visitors: a login link). */
export function OpenOrders({ orders, locale, loginHref }: { orders: OpenOrder[] | null; locale: string; loginHref: string }) {
  const { t } = useTranslation();
  useOrderChanges(orders);
  return (
    <OpenItemsPanel
      id="open-orders-title"
      title={t("trade.open_orders")}
      empty={t("trade.no_open_orders")}
      loginHref={loginHref}
      rows={
        orders &&
        orders.map((o) => ({
          key: o.id,
          to: orderHref(o),
          content: (
            <>
              <span className={`side ${o.side === 1 ? "up" : "down"}`}>{t(o.side === 1 ? "trade.buy" : "trade.sell")}</span>
              <span className="num">{t("trade.lots_value", { lots: o.lots })}</span>
              <span className="num row-label">{priceText(o.price, o.precision, locale)}</span>
              <span className="badge">{t(o.status === 0 ? "orders.pending" : "orders.holding")}</span>
            </>
          ),
        }))
      }
    />
  );
}

/**
 * "Order confirmed" (spec §2: after ordering, a success popup links to the orders page or
 * confirms). A card over the page that works without JavaScript: Confirm is a link back to the
 * trade page; with JavaScript it takes the focus when it opens.
 */
export function PlacedDialog({ order, locale, closeHref }: { order: PlacedOrder; locale: string; closeHref: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [order.id]);
  const rows: [string, string][] = [
    [
      t("trade.side"),
      `${t(order.side === 1 ? "trade.buy" : "trade.sell")} · ${t(order.status === 0 ? "trade.pending_order" : "trade.market_order")}`,
    ],
    [
      t("trade.lots"),
      `${order.showCode} · ${t("trade.lots_value", { lots: order.lots })}${order.leverage > 0 ? ` · ${t("trade.multiple_value", { value: order.leverage })}` : ""}`,
    ],
    [order.status === 0 ? t("trade.buy_price") : t("trade.price"), priceText(order.price, order.precision, locale)],
    [t("trade.margin"), `${formatMoney(order.margin, locale, 6)} USD`],
    [t("trade.fee"), `${formatMoney(order.fee, locale, 6)} USD`],
  ];
  return (
    <div className="dialog-backdrop">
      <div className="card order-dialog" role="dialog" aria-labelledby="order-dialog-title" tabIndex={-1} ref={ref}>
        <h2 id="order-dialog-title">{t("contract.order_confirmed")}</h2>
        <dl className="details">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className="num">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="tiles">
          <Link to={`/order?source=0&type=${order.status === 0 ? 0 : 1}`} className="button">
            {t("trade.view_orders")}
          </Link>
          <Link to={closeHref} className="button primary" replace preventScrollReset>
            {t("common.confirm")}
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The time now, from the server's render time (so hydration matches), then every second. */
function useNow(renderedAt: number) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function useCountdownText(ms: number) {
  const { t } = useTranslation();
  const { days, clock } = countdownParts(ms);
  return days > 0 ? t("trade.countdown_days", { count: days, time: clock }) : clock;
}

/** How long until the current candle of the period closes (next to the period bar). */
export function CandleCountdown({ period, renderedAt }: { period: Period; renderedAt: number }) {
  const { t } = useTranslation();
  const now = useNow(renderedAt);
  const text = useCountdownText(candleEnd(period, now) - now);
  return (
    <p className="candle-countdown small muted">
      {t("trade.candle_closes_in")}{" "}
      <span className="num" role="timer">
        {text}
      </span>
    </p>
  );
}

/**
 * A delivery contract's next delivery (date and time in the user's language; the server renders
 * New York time, the browser then its own time zone) and a countdown; perpetual contracts say so.
 */
export function DeliveryInfo({
  delivery,
  renderedAt,
  locale,
}: {
  delivery: { days: number; at: number } | null;
  renderedAt: number;
  locale: string;
}) {
  const { t } = useTranslation();
  const now = useNow(renderedAt);
  const [zone, setZone] = useState<string | undefined>(MARKET_TIME_ZONE);
  useEffect(() => setZone(undefined), []);
  const at = delivery ? (delivery.at > now ? delivery.at : nextDelivery(delivery.days, now)) : 0;
  const countdown = useCountdownText(at - now);
  if (!delivery) return <span className="badge trade-delivery">{t("trade.perpetual")}</span>;
  const date = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(at);
  return (
    <p className="trade-delivery small">
      <span className="muted">{t("trade.delivery")}</span>{" "}
      <time dateTime={new Date(at).toISOString()} suppressHydrationWarning>
        {date}
      </time>{" "}
      <span className="num" role="timer">
        {t("trade.delivery_countdown", { time: countdown })}
      </span>
    </p>
  );
}
