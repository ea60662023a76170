/**
 * Timed options on /order's future tab (spec §2 Orders, §4 future order): the list row (with the
 * per-second countdown and the live predicted profit while open, the end price and FactProfits
 * once closed) and the detail with the receipt (the ticks that opened and settled it). The
 * server renders the remaining time as of its render; with JavaScript it counts down, and the
 * predicted profit follows the DAY_MARKET quotes through the same rule the engine settles with.
 */
import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useLiveClient } from "~/components/live";
import { useTranslation } from "~/i18n/react";
import { durationText } from "~/components/option-form";
import { OpenItemsPanel } from "~/components/trade-panels";
import { OrderTime, formatProfit, formatSteps, profitClass } from "~/components/orders";
import { priceToSteps, type Quote } from "~/domain/market";
import { formatMoney, type Micros } from "~/domain/money";
import { OptionStatus, predictedProfit, type Direction } from "~/domain/option";
import { countdownParts } from "~/lib/format";
import { useUnitLocale } from "~/lib/unit-locale";
import type { OpenOptionView, OptionView } from "~/services/option/views";

/** The time now: the server's render time first (so hydration matches), then every second. */
export function useClock(renderedAt: number) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function DirectionBadge({ direction }: { direction: number }) {
  const { t } = useTranslation();
  const up = direction === 1;
  return (
    <span className={`side-badge ${up ? "buy" : "sell"}`}>
      <span aria-hidden="true">{up ? "↑ " : "↓ "}</span>
      {t(up ? "options.up" : "options.down")}
    </span>
  );
}

/**
 * The remaining time (RemainMilliSeconds) as a clock. The ticking number is not a live region
 * (it would speak every second); its label says what it is.
 */
export function Countdown({ expiresAt, now }: { expiresAt: number; now: number }) {
  const { t } = useTranslation();
  const ms = expiresAt - now;
  const { days, clock } = countdownParts(ms);
  const text = days > 0 ? t("trade.countdown_days", { count: days, time: clock }) : clock;
  return (
    <span
      className="num option-countdown"
      role="timer"
      aria-live="off"
      aria-label={t("options.remaining_label", { time: text })}
      data-remaining={Math.max(0, ms)}
    >
      {ms > 0 ? text : t("options.expiring")}
    </span>
  );
}

/** The predicted profit at the current quote (null without one: before JavaScript, or no quote). */
export function livePrediction(option: OptionView, quote: Quote | undefined): Micros | null {
  if (!quote || !(quote.Close > 0)) return null;
  return predictedProfit(
    option.direction as Direction,
    option.openPrice,
    priceToSteps(quote.Close, option.precision),
    option.amount,
    option.profitRatio,
    option.lossLevel,
  );
}

function Profit({ value, locale }: { value: Micros | null; locale: string }) {
  if (value === null) return <span className="num">—</span>;
  return <span className={`num ${profitClass(value)}`}>{formatProfit(value, locale)}</span>;
}

function Price({ steps, precision, locale }: { steps: number | null; precision: number; locale: string }) {
  return <span className="num">{steps === null || steps === 0 ? "—" : formatSteps(steps, precision, locale)}</span>;
}

/** One option in a list, as a link to its detail sheet. */
export function OptionRow({
  option,
  to,
  locale,
  now,
  predicted,
}: {
  option: OptionView;
  to: string;
  locale: string;
  now: number;
  predicted: Micros | null;
}) {
  const { t } = useTranslation();
  const unitLocale = useUnitLocale(locale);
  const open = option.status === OptionStatus.Open;
  return (
    <Link to={to} className="order-row option-row" preventScrollReset data-order-id={option.id} data-option-id={option.id}>
      <span className="order-row-head">
        <span className="symbol">{option.showCode}</span>
        <DirectionBadge direction={option.direction} />
        <span className="num">{formatMoney(option.amount, locale, 2)} USD</span>
        <span className="muted small">{durationText(unitLocale, option.seconds)}</span>
      </span>
      <span className="order-figures">
        <span>
          <span className="figure-label">{t("options.open_price")}</span>
          <Price steps={option.openPrice} precision={option.precision} locale={locale} />
        </span>
        {open ? (
          <>
            <span>
              <span className="figure-label">{t("options.remaining")}</span>
              <Countdown expiresAt={option.expiresAt} now={now} />
            </span>
            <span data-figure="predicted">
              <span className="figure-label">{t("options.predicted_profit")}</span>
              <Profit value={predicted} locale={locale} />
            </span>
          </>
        ) : (
          <>
            <span>
              <span className="figure-label">{t("options.end_price")}</span>
              <Price steps={option.endPrice} precision={option.precision} locale={locale} />
            </span>
            <span data-figure="profit">
              <span className="figure-label">{t("options.profit")}</span>
              <Profit value={option.profit} locale={locale} />
            </span>
          </>
        )}
      </span>
      <span className="order-row-time muted small">
        <OrderTime ms={open ? option.createdAt : (option.settledAt ?? option.createdAt)} locale={locale} />
      </span>
    </Link>
  );
}

function Item({ label, children, name }: { label: string; children: ReactNode; name?: string }) {
  return (
    <div data-item={name}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Every field of the option, with its receipt: open tick, expiry, settlement tick (and whether it came late). */
export function OptionDetail({
  option,
  locale,
  now,
  predicted,
}: {
  option: OptionView;
  locale: string;
  now: number;
  predicted: Micros | null;
}) {
  const { t } = useTranslation();
  const unitLocale = useUnitLocale(locale);
  const open = option.status === OptionStatus.Open;
  return (
    <dl className="details order-details option-details">
      <Item label={t("orders.instrument")}>
        <span className="symbol">{option.showCode}</span> <DirectionBadge direction={option.direction} />
      </Item>
      <Item label={t("orders.status_label")} name="status">
        {t(`options.status_${option.status}`)}
      </Item>
      <Item label={t("options.amount")}>
        <span className="num">{formatMoney(option.amount, locale, 2)}</span>
      </Item>
      <Item label={t("options.duration")}>{durationText(unitLocale, option.seconds)}</Item>
      <Item label={t("options.open_price")} name="open">
        <span className="option-receipt">
          <Price steps={option.openPrice} precision={option.precision} locale={locale} />
          <small>
            {t("options.open_tick")}: <OrderTime ms={option.openTickAt} locale={locale} />
          </small>
          <small>{t("options.feed", { feed: option.openFeed })}</small>
        </span>
      </Item>
      <Item label={t("options.expires_at")}>
        <OrderTime ms={option.expiresAt} locale={locale} />
      </Item>
      {open ? (
        <>
          <Item label={t("options.remaining")}>
            <Countdown expiresAt={option.expiresAt} now={now} />
          </Item>
          <Item label={t("options.predicted_profit")} name="predicted">
            <Profit value={predicted} locale={locale} />
          </Item>
        </>
      ) : (
        <>
          <Item label={t("options.end_price")} name="end">
            <span className="option-receipt">
              <Price steps={option.endPrice} precision={option.precision} locale={locale} />
              {option.endTickAt !== null ? (
                <small>
                  {t("options.end_tick")}: <OrderTime ms={option.endTickAt} locale={locale} />
                </small>
              ) : null}
              {option.endFeed === "reset" ? (
                <small>{t("options.closed_by_reset")}</small>
              ) : option.endFeed ? (
                <small>{t("options.feed", { feed: option.endFeed })}</small>
              ) : null}
              {option.late === 1 ? <small className="option-late">{t("options.late")}</small> : null}
            </span>
          </Item>
          <Item label={t("options.profit")} name="profit">
            <Profit value={option.profit} locale={locale} />
          </Item>
        </>
      )}
      <Item label={t("options.option_id")}>
        <span className="num">{option.id}</span>
      </Item>
      <Item label={t("options.created_at")}>
        <OrderTime ms={option.createdAt} locale={locale} />
      </Item>
      {option.settledAt !== null ? (
        <Item label={t("options.settled_at")}>
          <OrderTime ms={option.settledAt} locale={locale} />
        </Item>
      ) : null}
    </dl>
  );
}

/**
 * The future tab's panel: the user's options in transaction on this instrument, each counting
 * down to its expiry and linking to its detail. With JavaScript the page reloads when one settles
 * (MICRO_SETTLED) or one second after one reaches zero.
 */
export function OpenOptions({
  options,
  locale,
  loginHref,
  renderedAt,
}: {
  options: OpenOptionView[] | null;
  locale: string;
  loginHref: string;
  renderedAt: number;
}) {
  const { t } = useTranslation();
  const now = useClock(renderedAt);
  const client = useLiveClient();
  const { revalidate, state } = useRevalidator();
  const ref = useRef({ options, state });
  ref.current = { options, state };
  useEffect(() => {
    if (!client) return;
    return client.subscribe("MICRO_SETTLED", (data) => {
      const ids = Array.isArray(data) ? data.map((d: { Id?: unknown }) => d?.Id) : [];
      if ((ref.current.options ?? []).some((o) => ids.includes(o.id)) && ref.current.state === "idle") revalidate();
    });
  }, [client, revalidate]);
  const due = (options ?? []).some((o) => o.expiresAt + 1000 <= now);
  useEffect(() => {
    if (due && state === "idle") revalidate();
  }, [due, state, revalidate]);
  return (
    <OpenItemsPanel
      id="open-options-title"
      title={t("orders.in_transaction")}
      empty={t("common.no_data")}
      loginHref={loginHref}
      rows={
        options &&
        options.map((o) => ({
          key: o.id,
          to: `/order?source=1&type=1&detail=${o.id}`,
          content: (
            <>
              <DirectionBadge direction={o.direction} />
              <span className="num">{formatMoney(o.amount, locale, 2)} USD</span>
              <Countdown expiresAt={o.expiresAt} now={now} />
            </>
          ),
        }))
      }
    />
  );
}
