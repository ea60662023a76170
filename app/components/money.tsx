import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { useServes } from "~/lib/root-data";
import { formatBalance, formatMoney, type Micros } from "~/domain/money";

/** An amount in USD at 2 decimals (or `decimals`), formatted exactly, with tabular figures. */
export function Money({ value, locale, decimals = 2 }: { value: Micros; locale: string; decimals?: number }) {
  return <span className="num">{formatMoney(value, locale, decimals)}</span>;
}

/**
 * A balance (available, locked, an account's or the total) at 2 decimals, never shown larger than
 * it is (cut toward zero: 0.175 reads 0.17, the most that can be moved at 2 decimals).
 */
export function Balance({ value, locale }: { value: Micros; locale: string }) {
  return <span className="num">{formatBalance(value, locale)}</span>;
}

/** The Deposit and Withdraw buttons of the balance cards. */
export function FundingButtons() {
  const { t } = useTranslation();
  if (!useServes()("/mine/charge")) return null;
  return (
    <div className="tiles">
      <Link to="/mine/charge" className="button primary">
        {t("home.deposit")}
      </Link>
      <Link to="/mine/withdraw" className="button">
        {t("home.withdraw")}
      </Link>
    </div>
  );
}
