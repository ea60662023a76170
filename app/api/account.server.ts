/** JSON calls of the signed-in user and the company (spec §7): profile, balances, settings. */
import { toDecimalString } from "~/domain/money";
import { areaList, basicInfo, companyInfo, publicSetting, todayProfit, userProfile, walletBalances } from "~/services/account.server";
import { CompanyQuerySchema, SettingQuerySchema } from "~/forms/account";
import { resetDemoAccount } from "~/services/demo.server";
import { companyCard } from "~/services/search.server";
import { actingUserOrInvalid, failure, ok, parsed, query, userOrInvalid, type Handler, type Routes } from "./common.server";

/**
 * The spec's demo reset: the /user form's service (open demo orders and options closed, balances
 * back to the starting ones, in one ledger transaction). A GET acts only with the token in the
 * `authorization` header, never on the cookie alone; real accounts are refused.
 */
const resetDemo: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  if (!user.isDemo) return failure(ctx, { form: "errors.demo_only" }, 403);
  await resetDemoAccount(ctx, user.id);
  return ok(ctx, await walletBalances(ctx, user.id), "user.demo_reset_done");
};

export const accountRoutes: Routes = {
  "/api/default/area_list": { GET: async (_r, ctx) => ok(ctx, await areaList(ctx)) },
  "/api/default/setting": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, SettingQuerySchema, query(request));
      if (input instanceof Response) return input;
      const { key } = input;
      const value = await publicSetting(ctx, key);
      return value === null ? failure(ctx, { key: "errors.not_found" }) : ok(ctx, { key, value });
    },
  },
  "/api/basicSet/getBasicInfo": { GET: async (_r, ctx) => ok(ctx, await basicInfo(ctx)) },
  "/api/company/getCompany": {
    // Without id: the site's own company; with id (the search page's popup): that open company's card.
    GET: async (request, ctx) => {
      const input = parsed(ctx, CompanyQuerySchema, query(request));
      if (input instanceof Response) return input;
      if (input.id === undefined) return ok(ctx, await companyInfo(ctx));
      const found = await companyCard(ctx, input.id);
      return found ? ok(ctx, found) : failure(ctx, { id: "errors.not_found" }, 404);
    },
  },
  "/api/company/getCompanyStatus": {
    GET: async (_r, ctx) => {
      const c = await companyInfo(ctx);
      return ok(ctx, { status: c?.status ?? 1, type: c?.type ?? 0, loss_url: c?.loss_url ?? "" });
    },
  },
  "/api/user/info": {
    GET: async (_r, ctx) => {
      const user = await userOrInvalid(ctx);
      return user instanceof Response ? user : ok(ctx, await userProfile(ctx, user.id));
    },
  },
  "/api/user/get_profits": {
    GET: async (_r, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const profit = await todayProfit(ctx, user.id);
      return ok(ctx, { profit: toDecimalString(profit.profit, 2), percent: profit.percent });
    },
  },
  "/v2/api/main/wallet/getBalance": {
    GET: async (_r, ctx) => {
      const user = await userOrInvalid(ctx);
      return user instanceof Response ? user : ok(ctx, await walletBalances(ctx, user.id));
    },
  },
  "/v2/api/main/user/resetForexDemoAccount": { GET: resetDemo, POST: resetDemo },
};
