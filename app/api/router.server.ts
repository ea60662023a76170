/**
 * The JSON API of spec §7 behind one router: each area has its own module of routes (auth,
 * account, market; the trading, wallet and copy-trading releases add theirs). Unknown paths
 * and methods get the §8 envelope with a translated message.
 */
import type { AppContext } from "~/context.server";
import { ApiCode } from "~/lib/api-code";
import { envelope } from "~/lib/http.server";
import { accountRoutes } from "./account.server";
import { authRoutes } from "./auth.server";
import { contentRoutes } from "./content.server";
import { contractRoutes } from "./contract.server";
import { copyRoutes } from "./copy.server";
import { fundRoutes } from "./fund.server";
import { identityRoutes } from "./identity.server";
import { loanRoutes } from "./loan.server";
import { depositRoutes } from "./deposit.server";
import type { Routes } from "./common.server";
import { marketRoutes } from "./market.server";
import { optionRoutes } from "./option.server";
import { uploadRoutes } from "./upload.server";
import { walletRoutes } from "./wallet.server";
import { withdrawRoutes } from "./withdraw.server";
import { searchRoutes } from "./search.server";
import { web3Routes } from "./web3.server";

const routes: Routes = {
  ...accountRoutes,
  ...authRoutes,
  ...marketRoutes,
  ...contractRoutes,
  ...optionRoutes,
  ...uploadRoutes,
  ...identityRoutes,
  ...depositRoutes,
  ...walletRoutes,
  ...withdrawRoutes,
  ...contentRoutes,
  ...copyRoutes,
  ...searchRoutes,
  ...loanRoutes,
  ...fundRoutes,
  ...web3Routes,
};

export async function handleApi(request: Request, ctx: AppContext): Promise<Response | null> {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (!route)
    return path.startsWith("/api/") || path.startsWith("/v2/api/") ? envelope(ApiCode.Error, ctx.t("errors.not_found"), null, 404) : null;
  const handler = request.method === "GET" || request.method === "POST" ? route[request.method] : undefined;
  if (!handler) return envelope(ApiCode.Error, ctx.t("errors.method_not_allowed"), null, 405);
  return handler(request, ctx);
}
