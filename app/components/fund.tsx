/** Pieces shared by the mining pages: a subscription's status badge, a percentage, a profit figure (4 decimals). */
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { DAY_PROFIT_DECIMALS, SUBSCRIPTION_STATUS_KEYS } from "~/domain/fund";
import { formatMoney, type Micros } from "~/domain/money";
import { useUnitLocale } from "~/lib/unit-locale";

export function SubscriptionStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = SUBSCRIPTION_STATUS_KEYS[status] ?? "in_progress";
  return <span className={`badge fund-status fund-status-${key}`}>{t(`fund.status_${key}`)}</span>;
}

export function Percent({ value, locale }: { value: string; locale: string }) {
  // the stored exact decimal, with the locale's decimal separator
  const sep = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return <span className="num">{value.replace(".", sep)} %</span>;
}

/** A fund amount with its currency code. */
export function FundMoney({
  value,
  currency,
  locale,
  decimals = 2,
}: {
  value: Micros;
  currency: string;
  locale: string;
  decimals?: number;
}) {
  return (
    <span className="num">
      {formatMoney(value, locale, decimals)} <span className="currency-code">{currency}</span>
    </span>
  );
}

export const ProfitMoney = ({ value, currency, locale }: { value: Micros; currency: string; locale: string }) => (
  <FundMoney value={value} currency={currency} locale={locale} decimals={DAY_PROFIT_DECIMALS} />
);

/** A number of days in the reader's language (Intl: no plural keys; the page's unit locale). */
export function Days({ days, locale }: { days: number; locale: string }) {
  const unitLocale = useUnitLocale(locale);
  return <span className="num">{new Intl.NumberFormat(unitLocale, { style: "unit", unit: "day", unitDisplay: "long" }).format(days)}</span>;
}

/** One figure of a fund or a subscription (a term and its value, inside a <dl>); `up` colours it as income. */
export function FundFigure({ label, up, children }: { label: string; up?: boolean; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={up ? "up" : undefined}>{children}</dd>
    </div>
  );
}
