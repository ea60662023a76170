/**
 * Building blocks of the wallet screens: the sub-account cards (balance and lock balance, with
 * a link to each account's details), a signed amount, and plain previous / next page links (the
 * paging that works without JavaScript).
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ChevronIcon } from "~/components/icons";
import { Balance, Money } from "~/components/money";
import { exactDecimals, type Micros } from "~/domain/money";

export interface AccountView {
  kind: string;
  accountTypeId: number;
  balance: Micros;
  lockBalance: Micros;
}

export const historyHref = (accountTypeId: number) => `/mine/history?accountTypeId=${accountTypeId}`;

/** The sub-accounts, sorted by accountTypeId (as the loader gives them), each linking to its details. */
export function AccountCards({ accounts, locale }: { accounts: AccountView[]; locale: string }) {
  const { t } = useTranslation();
  return (
    <ul className="account-cards" aria-label={t("wallet.accounts_list")}>
      {accounts.map((a) => (
        <li key={a.accountTypeId} className="card account-card" data-account={a.kind}>
          <Link to={historyHref(a.accountTypeId)} className="account-card-head">
            <h2>{t(`accounts.${a.kind}`)}</h2>
            <span className="muted small">{t("wallet.history")}</span>
            <ChevronIcon />
          </Link>
          <dl className="account-figures">
            <div>
              <dt>{t("wallet.balance")}</dt>
              <dd>
                <Balance value={a.balance} locale={locale} />
              </dd>
            </div>
            <div>
              <dt>{t("wallet.lock_balance")}</dt>
              <dd>
                <Balance value={a.lockBalance} locale={locale} />
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** An amount with its sign and the up/down colour (the sign is there for readers who cannot tell colours apart). */
export function SignedMoney({ value, locale, exact = false }: { value: Micros; locale: string; exact?: boolean }) {
  return (
    <span className={value > 0 ? "up num" : value < 0 ? "down num" : "num"}>
      {value > 0 ? "+" : ""}
      <Money value={value} locale={locale} decimals={exact ? exactDecimals(value) : 2} />
    </span>
  );
}

/** Plain previous / next links with "page n of m". A page past the end links back to the last one. */
export function Pager({ page, lastPage, href, label }: { page: number; lastPage: number; href: (page: number) => string; label: string }) {
  const { t } = useTranslation();
  if (lastPage <= 1 && page <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link to={href(Math.min(page - 1, Math.max(1, lastPage)))} className="button" rel="prev" preventScrollReset>
          {t("orders.previous_page")}
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small num">{t("orders.page_of", { page, pages: lastPage })}</span>
      {page < lastPage ? (
        <Link to={href(page + 1)} className="button" rel="next" preventScrollReset>
          {t("orders.next_page")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
