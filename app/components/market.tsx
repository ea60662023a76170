/** Market rows and cards shared by the home, trade and search screens. */
import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/react";
import { useServes } from "~/lib/root-data";
import { EmptyState } from "~/components/layout";
import { direction, formatChange, formatPrice } from "~/lib/format";
import type { Quote } from "~/domain/market";

/** How long a changed price shows its up/down colour. */
const FLASH_MS = 800;

/** A price that flashes its up/down colour when it changes (no layout shift). */
export function LivePrice({
  value,
  precision,
  locale,
  className = "",
}: {
  value: number | undefined;
  precision: number;
  locale: string;
  className?: string;
}) {
  const ref = useRef<HTMLSpanElement>(null);
  const previous = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    const el = ref.current;
    if (!el || value === undefined || previous.current === undefined || value === previous.current) {
      previous.current = value;
      return;
    }
    // The new price holds its up/down colour for FLASH_MS, then drops it: two style changes and
    // two paints. (A CSS colour animation repaints, and even a stepped one restyles, every frame
    // while it runs: with prices ticking every second, the main thread never rests.)
    const cls = value > previous.current ? "flash-up" : "flash-down";
    previous.current = value;
    clearTimeout(timer.current);
    el.classList.remove("flash-up", "flash-down");
    el.classList.add(cls);
    timer.current = setTimeout(() => el.classList.remove(cls), FLASH_MS);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <span ref={ref} className={`num price ${className}`}>
      {value === undefined ? "—" : formatPrice(value, precision, locale)}
    </span>
  );
}

export function ChangeBadge({ quote, locale }: { quote: Quote | undefined; locale: string }) {
  const { t } = useTranslation();
  if (!quote) return <span className="change muted">—</span>;
  if (quote.MarketStatus !== 1) return <span className="change closed">{t("market.closed")}</span>;
  const dir = direction(quote.Change);
  return (
    <span className={`change num ${dir}`}>
      {dir === "flat" ? null : <span className="mark" aria-hidden="true" />}
      {formatChange(quote.Change, locale)}
    </span>
  );
}

export interface RowInstrument {
  id: number;
  code: string;
  showCode: string;
  pricePrecision: number;
  logo?: string;
}

export function InstrumentRow({
  instrument,
  quote,
  locale,
  to,
}: {
  instrument: RowInstrument;
  quote: Quote | undefined;
  locale: string;
  /** The instrument's page; null where this deployment serves none (upstream mode, lib/upstream-areas.ts). */
  to: string | null;
}) {
  const row = (
    <>
      <span className="symbol">
        {instrument.logo ? <img src={instrument.logo} alt="" width={24} height={24} loading="lazy" /> : null}
        {instrument.showCode}
      </span>
      <LivePrice value={quote?.Close} precision={instrument.pricePrecision} locale={locale} />
      <ChangeBadge quote={quote} locale={locale} />
    </>
  );
  return to ? (
    <Link to={to} className="instrument-row" prefetch="intent">
      {row}
    </Link>
  ) : (
    <div className="instrument-row">{row}</div>
  );
}

export function SkeletonRows({ count = 10 }: { count?: number }) {
  return (
    <ul className="instrument-list skeleton" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="instrument-row">
          <span className="bone w40" />
          <span className="bone w25" />
          <span className="bone w15" />
        </li>
      ))}
    </ul>
  );
}

/** A list of instruments with live prices; each opens its trade screen. Empty state when none. */
export function InstrumentList({
  instruments,
  quotes,
  locale,
  href = (i) => `/trade?code=${encodeURIComponent(i.code)}`,
}: {
  instruments: RowInstrument[];
  quotes: Map<string, Quote>;
  locale: string;
  href?: (i: RowInstrument) => string;
}) {
  const { t } = useTranslation();
  const served = useServes();
  if (instruments.length === 0) return <EmptyState title={t("common.no_data")} />;
  return (
    <ul className="instrument-list">
      {instruments.map((i) => (
        <li key={i.id}>
          <InstrumentRow instrument={i} quote={quotes.get(i.code)} locale={locale} to={served(href(i)) ? href(i) : null} />
        </li>
      ))}
    </ul>
  );
}
