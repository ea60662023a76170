/** Wallet (spec §2 /mine/wallet): the three accounts with links to their details, the payout methods, transfer, deposit and withdraw. */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ChevronIcon, IdIcon, TransferIcon, WalletIcon } from "~/components/icons";
import { PageHeader } from "~/components/layout";
import { Balance, FundingButtons } from "~/components/money";
import { RouteErrorBoundary } from "~/components/route-error";
import { AccountCards } from "~/components/wallet";
import { useRootData, useServes } from "~/lib/root-data";
import { myAssets } from "~/services/account.server";
import { requireUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/wallet.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "home", "orders", "wallet"] };

export const meta = titled("wallet.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const assets = await valueOf(context, request, await myAssets(context, user.id));
  return {
    total: assets.total,
    accounts: assets.accounts.map((a) => ({
      kind: a.kind,
      accountTypeId: a.accountTypeId,
      balance: a.balance,
      lockBalance: a.lockBalance,
    })),
  };
}

const LINKS = [
  { to: "/mine/transfer", label: "wallet.transfer", Icon: TransferIcon },
  { to: "/mine/accounts", label: "wallet.overview", Icon: WalletIcon },
  { to: "/mine/bank-card-list", label: "wallet.bank_cards", Icon: IdIcon },
  { to: "/mine/coin-address-list", label: "wallet.coin_addresses", Icon: WalletIcon },
] as const;

export default function Wallet() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const served = useServes();
  return (
    <div className="page">
      <PageHeader title={t("wallet.title")} back="/user" />
      <section className="card assets-card" aria-labelledby="wallet-total">
        <h2 id="wallet-total">{t("wallet.total")}</h2>
        <p className="big-number num">
          <Balance value={data.total} locale={locale} /> <span className="unit">USD</span>
        </p>
        <FundingButtons />
      </section>
      <AccountCards accounts={data.accounts} locale={locale} />
      <nav className="card" aria-label={t("wallet.actions")}>
        <ul className="rows">
          {LINKS.filter(({ to }) => served(to)).map(({ to, label, Icon }) => (
            <li key={to}>
              <Link to={to} className="row">
                <Icon />
                <span className="row-label">{t(label)}</span>
                <ChevronIcon />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
