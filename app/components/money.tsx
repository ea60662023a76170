import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney, type Micros } from "~/domain/money";

/** An amount in USD at 2 decimals (or `decimals`), formatted exactly, with tabular figures. */
export function Money({ value, locale, decimals = 2 }: { value: Micros; locale: string; decimals?: number }) {
  return <span className="num">{formatMoney(value, locale, decimals)}</span>;
}

/** The Deposit and Withdraw buttons of the balance cards. */
export function FundingButtons() {
  const { t } = useTranslation();
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
