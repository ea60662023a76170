import { formatMoney, type Micros } from "~/lib/money";

/** An amount in USD at 2 decimals (or `decimals`), formatted exactly, with tabular figures. */
export function Money({ value, locale, decimals = 2 }: { value: Micros; locale: string; decimals?: number }) {
  return <span className="num">{formatMoney(value, locale, decimals)}</span>;
}
