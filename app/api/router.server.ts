/**
 * The JSON calls of spec §7 that belong to accounts and sign-in, at the spec's paths, answering
 * the spec §8 envelope {code, msg, data}. They use the same services as the forms. The token
 * comes in the `authorization` header (or the web app's cookie); `lang` picks the language.
 */
import type { AppContext } from "~/context.server";
import { ApiCode, envelope, readBody } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { toDecimalString } from "~/lib/money";
import {
  amendPassword,
  demoLogin,
  login,
  register,
  resetPassword,
  sendAmendCode,
  sendCode,
  sendResetCode,
  type Outcome,
} from "~/services/auth.server";
import { createCaptcha } from "~/services/codes.server";
import { Limits, clientKey, hit } from "~/services/rate-limit.server";
import { userProfile, walletBalances, todayProfit, companyInfo, basicInfo, areaList } from "~/services/account.server";
import { candles, listCategories, listInstruments, marketQuotes, toTradeListItem } from "~/services/market.server";
import { isPeriod } from "../../party/market/sim";

type Handler = (request: Request, ctx: AppContext) => Promise<Response>;

function ok(ctx: AppContext, data: unknown, msgKey = "api.success") {
  return envelope(ApiCode.Ok, ctx.t(msgKey), data);
}

function failure<T>(ctx: AppContext, outcome: Extract<Outcome<T>, { ok: false }>) {
  const first = Object.values(outcome.errors)[0];
  return envelope(ApiCode.Error, translateMessage(ctx.t, first ?? "errors.try_again"), { errors: outcome.errors });
}

function invalidSession(ctx: AppContext) {
  return envelope(ApiCode.InvalidSession, ctx.t("errors.session_invalid"));
}

async function body(request: Request, ctx: AppContext): Promise<Record<string, string> | Response> {
  const data = await readBody(request);
  return data ?? envelope(ApiCode.Error, ctx.t("errors.bad_request"), null, 400);
}

function query(request: Request) {
  return Object.fromEntries(new URL(request.url).searchParams);
}

const routes: Record<string, Partial<Record<"GET" | "POST", Handler>>> = {
  "/api/default/area_list": { GET: async (_r, ctx) => ok(ctx, await areaList(ctx)) },
  "/api/basicSet/getBasicInfo": { GET: async (_r, ctx) => ok(ctx, await basicInfo(ctx)) },
  "/api/company/getCompany": { GET: async (_r, ctx) => ok(ctx, await companyInfo(ctx)) },
  "/api/company/getCompanyStatus": {
    GET: async (_r, ctx) => {
      const c = await companyInfo(ctx);
      return ok(ctx, { status: c?.status ?? 1, type: c?.type ?? 0, loss_url: c?.loss_url ?? "" });
    },
  },
  "/api/captcha": {
    GET: async (request, ctx) => {
      if (!(await hit(ctx.d1, `captcha:c:${clientKey(request)}`, Limits.captchaPerClient))) {
        return envelope(ApiCode.Error, ctx.t("errors.too_many_requests"));
      }
      return ok(ctx, await createCaptcha(ctx.d1));
    },
  },
  "/api/user/loginForU": {
    POST: async (request, ctx) => {
      const data = await body(request, ctx);
      if (data instanceof Response) return data;
      const result = await login(ctx, request, data);
      if (!result.ok) return failure(ctx, result);
      return ok(ctx, { token: result.value.token, user: await userProfile(ctx, result.value.userId) }, "auth.login_success");
    },
  },
  "/api/user/createAccountDemoForU": {
    GET: async (request, ctx) => {
      const result = await demoLogin(ctx, request, query(request).demo_id);
      if (!result.ok) return failure(ctx, result);
      return ok(ctx, { token: result.value.token, demo_id: result.value.demoId, user: await userProfile(ctx, result.value.userId) });
    },
  },
  "/api/user/register": {
    POST: async (request, ctx) => {
      const data = await body(request, ctx);
      if (data instanceof Response) return data;
      const result = await register(ctx, request, data);
      if (!result.ok) return failure(ctx, result);
      return ok(ctx, { token: result.value.token, user: await userProfile(ctx, result.value.user.id) }, "auth.register_success");
    },
  },
  "/api/notify/send_email": { POST: (r, c) => sendCodeCall(r, c, "email") },
  "/api/notify/send_sms": { POST: (r, c) => sendCodeCall(r, c, "mobile") },
  "/api/user/forget_password": {
    POST: async (request, ctx) => {
      const data = await body(request, ctx);
      if (data instanceof Response) return data;
      const result = await resetPassword(ctx, {
        account: data.account ?? "",
        auth_code: data.auth_code ?? "",
        password: data.new_password ?? "",
        re_password: data.secondary_password ?? data.new_password ?? "",
      });
      if (!result.ok) return failure(ctx, result);
      return ok(ctx, null, "auth.password_changed");
    },
  },
  "/api/user/amend_password": {
    POST: async (request, ctx) => {
      const user = await ctx.user();
      if (!user) return invalidSession(ctx);
      const data = await body(request, ctx);
      if (data instanceof Response) return data;
      const result = await amendPassword(ctx, request, user, {
        auth_code: data.auth_code ?? "",
        password: data.new_password ?? "",
        re_password: data.secondary_password ?? data.new_password ?? "",
      });
      if (!result.ok) return failure(ctx, result);
      return ok(ctx, { token: result.value.token }, "auth.password_changed");
    },
  },
  "/api/user/info": {
    GET: async (_r, ctx) => {
      const user = await ctx.user();
      if (!user) return invalidSession(ctx);
      return ok(ctx, await userProfile(ctx, user.id));
    },
  },
  "/api/user/get_profits": {
    GET: async (_r, ctx) => {
      const user = await ctx.user();
      if (!user) return invalidSession(ctx);
      const profit = await todayProfit(ctx, user.id);
      return ok(ctx, { profit: toDecimalString(profit.profit, 2), percent: profit.percent });
    },
  },
  "/v2/api/forex/trade_list": {
    GET: async (request, ctx) => {
      const categoryId = Number(query(request).category_id) || null;
      const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
      const items = list.filter((i) => !categoryId || i.categoryId === categoryId).map((i) => toTradeListItem(i, market.quotes.get(i.code)));
      return ok(ctx, items);
    },
  },
  "/v2/api/forex/getCategories": {
    GET: async (_r, ctx) => {
      const list = await listCategories(ctx);
      return ok(ctx, list.map((c) => ({ Id: c.id, NameShowTrans: ctx.t(`categories.${c.key}`) })));
    },
  },
  "/v2/api/forex/abbreviated_cache_kline": { GET: (r, c) => klineCall(r, c, true) },
  "/v2/api/forex/kline": { GET: (r, c) => klineCall(r, c, false) },
  "/v2/api/main/wallet/getBalance": {
    GET: async (_r, ctx) => {
      const user = await ctx.user();
      if (!user) return invalidSession(ctx);
      return ok(ctx, await walletBalances(ctx, user.id));
    },
  },
};

/** kline (forex_id, period) and the mini-chart history (abbreviated_cache_kline: 5min, last 4 hours). */
async function klineCall(request: Request, ctx: AppContext, abbreviated: boolean) {
  const q = query(request);
  const id = Number(q.forex_id);
  const period = abbreviated ? "5min" : (q.period ?? "5min");
  if (!isPeriod(period)) return envelope(ApiCode.Error, ctx.t("errors.unknown_period"), null, 400);
  const instrument = Number.isInteger(id) ? (await listInstruments(ctx)).find((i) => i.id === id) : undefined;
  if (!instrument) return envelope(ApiCode.Error, ctx.t("errors.unknown_instrument"), null, 404);
  const list = await candles(ctx, instrument.code, period, abbreviated ? 48 : 300);
  return ok(ctx, abbreviated ? list.map((c) => ({ timestamp: c.timestamp, close: c.close })) : list);
}

/** send_email / send_sms: type 1 is a registration code; type 2 ("other") is a reset code, or the signed-in user's own code. */
async function sendCodeCall(request: Request, ctx: AppContext, channel: "email" | "mobile") {
  const data = await body(request, ctx);
  if (data instanceof Response) return data;
  const purpose = data.type === "2" ? "other" : "register";
  let result: Outcome<unknown>;
  if (purpose === "register") {
    result = await sendCode(ctx, request, { type: channel, account: data.to ?? "", area_id: data.area_id ?? "" });
  } else {
    const user = await ctx.user();
    result = user
      ? await sendAmendCode(ctx, request, user)
      : await sendResetCode(ctx, request, { account: data.to ?? "" });
  }
  if (!result.ok) return failure(ctx, result);
  return ok(ctx, { seconds: 60 }, "auth.code_sent");
}

export async function handleApi(request: Request, ctx: AppContext): Promise<Response | null> {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  const route = routes[path];
  if (!route) return path.startsWith("/api/") || path.startsWith("/v2/api/") ? envelope(ApiCode.Error, ctx.t("errors.not_found"), null, 404) : null;
  const handler = route[request.method as "GET" | "POST"];
  if (!handler) return envelope(ApiCode.Error, ctx.t("errors.method_not_allowed"), null, 405);
  return handler(request, ctx);
}
