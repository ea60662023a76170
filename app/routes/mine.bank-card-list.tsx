/** Saved payout methods (spec §2 /mine/bank-card-list): see app/components/payout-methods.tsx. */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { MethodsPage } from "~/components/payout-methods";
import { RouteErrorBoundary } from "~/components/route-error";
import { DrawType } from "~/domain/withdraw";
import { methodsAction, methodsLoader } from "~/route-helpers/payout-methods.server";
import walletStylesHref from "~/styles/withdraw.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "deposit", "orders", "trade", "wallet", "withdraw"] };

export const meta = titled("wallet.bank_cards");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

export const loader = (args: LoaderFunctionArgs) => methodsLoader(args, DrawType.Bank);
export const action = (args: ActionFunctionArgs) => methodsAction(args, DrawType.Bank);

export default MethodsPage;

export const ErrorBoundary = RouteErrorBoundary;
