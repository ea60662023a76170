/**
 * Account details and log (spec §2 /mine/history?accountTypeId, §3 Account log): the account's
 * balance and lock balance, and its entries (amount with sign, type and memo in the reader's
 * language, time), newest first, paged by plain links; plus the CSV statement of the same entries.
 */
import { redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { EmptyState, PageHeader } from "~/components/layout";
import { Money } from "~/components/money";
import { exactDecimals } from "~/domain/money";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { Pager, SignedMoney, historyHref } from "~/components/wallet";
import { WALLET_ACCOUNTS, accountTypeOf, pageParam } from "~/domain/wallet";
import { ledgerKindText, memoText } from "~/lib/ledger-text";
import { useRootData, useServes } from "~/lib/root-data";
import { myAccountHistory } from "~/services/wallet.server";
import { requireUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/wallet.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "copy", "history", "home", "ledger_kind", "orders", "trade", "transfer", "wallet"] };

export const meta = titled("history.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("accountTypeId");
  const id = accountTypeOf(raw);
  // Only the three ids are addresses of this page; anything else goes to the funding account's.
  if (id === null || raw !== String(id)) throw redirect(historyHref(id ?? 1));
  const { account, history: page } = await valueOf(
    context,
    request,
    await myAccountHistory(context, user.id, id, pageParam(url.searchParams.get("page"))),
  );
  if (!account) throw new Response("Not found", { status: 404 });
  return {
    accountTypeId: id,
    kind: account.kind,
    balance: account.balance,
    lockBalance: account.lockBalance,
    entries: page.entries,
    page: page.page,
    lastPage: page.lastPage,
  };
}

export default function History() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const name = t(`accounts.${data.kind}`);
  const served = useServes();
  return (
    <div className="page">
      <PageHeader title={t("history.title")} back="/mine/wallet" />
      <nav className="segmented" aria-label={t("history.accounts")}>
        {WALLET_ACCOUNTS.map((a) => (
          <Link
            key={a.accountTypeId}
            to={historyHref(a.accountTypeId)}
            replace
            className={a.accountTypeId === data.accountTypeId ? "active" : undefined}
            aria-current={a.accountTypeId === data.accountTypeId ? "page" : undefined}
          >
            {t(`accounts.${a.kind}`)}
          </Link>
        ))}
      </nav>
      <section className="card account-card" aria-labelledby="history-account">
        <h2 id="history-account">{t("wallet.history_of", { account: name })}</h2>
        <dl className="account-figures">
          <div>
            <dt>{t("wallet.balance")}</dt>
            <dd>
              <Money value={data.balance} locale={locale} decimals={exactDecimals(data.balance)} /> USD
            </dd>
          </div>
          <div>
            <dt>{t("wallet.lock_balance")}</dt>
            <dd>
              <Money value={data.lockBalance} locale={locale} decimals={exactDecimals(data.lockBalance)} /> USD
            </dd>
          </div>
        </dl>
        {served("/mine/history.csv") ? (
          <p>
            <a href={`/mine/history.csv?accountTypeId=${data.accountTypeId}`} className="button" download>
              {t("history.csv")}
            </a>
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="history-log">
        <h2 id="history-log">{t("history.log")}</h2>
        {data.entries.length === 0 ? (
          <EmptyState title={t("history.empty")} />
        ) : (
          <ul className="ledger-list">
            {data.entries.map((e) => (
              <li key={e.id}>
                <span className="ledger-title">{e.kindText ?? ledgerKindText(t, e.kind)}</span>
                <span className="ledger-amount">
                  <SignedMoney value={e.amount} locale={locale} exact />
                </span>
                <span className="ledger-sub">
                  {e.memoText ? <>{e.memoText} · </> : e.memo ? <>{memoText(t, e.memo)} · </> : null}
                  <OrderTime ms={e.createdAt} locale={locale} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager
          page={data.page}
          lastPage={data.lastPage}
          href={(p) => `${historyHref(data.accountTypeId)}&page=${p}`}
          label={t("orders.pages")}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
