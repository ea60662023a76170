/**
 * Assets overview (spec §2 /mine/accounts, §9): the accounts sorted by accountTypeId with balance
 * and lock balance, the total (Σ balance + lock balance, 2 decimals), today's profit and its
 * percentage of the total — the same figures as the home page and the user centre (one function).
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PageHeader } from "~/components/layout";
import { Balance, FundingButtons } from "~/components/money";
import { RouteErrorBoundary } from "~/components/route-error";
import { AccountCards, SignedMoney } from "~/components/wallet";
import { useRootData } from "~/lib/root-data";
import { myAssets } from "~/services/account.server";
import { requireUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/wallet.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "home", "orders", "wallet"] };

export const meta = titled("wallet.accounts_title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const assets = await valueOf(context, request, await myAssets(context, user.id));
  return {
    total: assets.total,
    profit: assets.profit,
    percent: assets.percent,
    accounts: assets.accounts.map((a) => ({
      kind: a.kind,
      accountTypeId: a.accountTypeId,
      balance: a.balance,
      lockBalance: a.lockBalance,
    })),
  };
}

export default function Accounts() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const sign = data.profit > 0 ? "+" : "";
  return (
    <div className="page">
      <PageHeader title={t("wallet.accounts_title")} back="/mine/wallet" />
      <section className="card assets-card" aria-labelledby="accounts-total">
        <h2 id="accounts-total">{t("wallet.total")}</h2>
        <p className="big-number num">
          <Balance value={data.total} locale={locale} /> <span className="unit">USD</span>
        </p>
        <dl className="account-figures">
          <div>
            <dt>{t("wallet.today_profit")}</dt>
            <dd>
              <SignedMoney value={data.profit} locale={locale} />
            </dd>
          </div>
          <div>
            <dt>{t("wallet.today_percent")}</dt>
            <dd className={data.profit > 0 ? "up num" : data.profit < 0 ? "down num" : "num"}>
              {sign}
              {data.percent}%
            </dd>
          </div>
        </dl>
        <p className="muted small">{t("wallet.sorted_note")}</p>
        <FundingButtons />
      </section>
      <AccountCards accounts={data.accounts} locale={locale} />
      <p className="center">
        <Link to="/mine/transfer" className="button">
          {t("wallet.transfer")}
        </Link>
      </p>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
