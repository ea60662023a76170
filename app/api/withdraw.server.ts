/**
 * JSON calls of withdrawals and payout methods (spec §7): /api/account/draw_symbol_list (type 1
 * coin / 2 bank), draw (draw_currency_id, number, memo, draw_method_id; optional request_id),
 * draw_list (type, page); /api/wallet/get_draw_method (draw_type, draw_id), bind_draw_method
 * (draw_type and the spec §3 Draw method fields), del_draw_method (id). Money as decimal strings,
 * spec §3 field names; another user's method or record answers as a missing one (404).
 */
import { toDecimalString, type Micros } from "~/domain/money";
import { STATUS_KEYS, explorerUrl } from "~/domain/withdraw";
import { parseFields, shapeQuery } from "~/forms/parse";
import {
  CurrencyQuerySchema,
  DeleteMethodSchema,
  MethodQuerySchema,
  RecordsQuerySchema,
  WithdrawSchema,
  parseBindMethod,
  withdrawInputOf,
} from "~/forms/withdraw";
import { requestWithdrawal } from "~/services/withdraw/commands.server";
import { bindMethod, deleteMethod, findMethod, listMethods, type PayoutMethod } from "~/services/withdraw/methods.server";
import { listWithdrawCurrencies, listWithdrawals, type WithdrawCurrency, type WithdrawalRow } from "~/services/withdraw/queries.server";
import type { AppContext } from "~/context.server";
import { actingUserOrInvalid, failure, fields, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: Micros) => toDecimalString(micros, 2);
const iso = (ms: number) => new Date(ms).toISOString();

/** Spec §3 Withdraw currency (and its minimum). */
export function toWireCurrency(c: WithdrawCurrency) {
  return {
    id: c.id,
    draw_type: c.drawType,
    code: c.code,
    protocol: c.protocol,
    draw_rate: c.drawRate,
    fee_type: c.feeType,
    usd_price: c.usdPrice,
    min_amount: money(c.minAmount),
  };
}

/** Spec §3 Draw method. */
export function toWireMethod(m: PayoutMethod) {
  return {
    id: m.id,
    draw_type: m.drawType,
    dc_address: m.dcAddress,
    bank_name: m.bankName,
    bank_address: m.bankAddress,
    bank_swift: m.bankSwift,
    payee_name: m.payeeName,
    payee_account: m.payeeAccount,
    draw_currency_id: m.drawCurrencyId,
    draw_currency: { id: m.drawCurrencyId, code: m.code, protocol: m.protocol },
    created_at: iso(m.createdAt),
  };
}

/** Spec §3 Withdraw record. */
export function toWireRecord(ctx: AppContext, w: WithdrawalRow) {
  return {
    id: w.id,
    number: money(w.amount),
    real_number: w.realNumber,
    draw_currency: { id: w.drawCurrencyId, code: w.currencyCode },
    fee: money(w.fee),
    status: w.status,
    status_name: ctx.t(STATUS_KEYS[w.status] ?? "withdraw.status_review"),
    created_at: iso(w.createdAt),
    type: w.type,
    address: w.address,
    payee_account: w.payeeAccount,
    memo: w.memo,
    notes: w.notes,
    // beyond the spec's record: a paid request's transaction id and its explorer page ("" when none)
    tx_id: w.txId ?? "",
    tx_url: (w.txNetwork && w.txId ? explorerUrl(w.txNetwork, w.txId) : null) ?? "",
  };
}

const draw: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  if (user.isDemo) return failure(ctx, { form: "errors.only_real_account" }, 403);
  const input = parseFields(WithdrawSchema, q);
  if (!input.ok) return failure(ctx, input.errors);
  const result = await requestWithdrawal(ctx, user, withdrawInputOf(input.value));
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, toWireRecord(ctx, result.value), "withdraw.requested");
};

export const withdrawRoutes: Routes = {
  "/api/account/draw_symbol_list": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const { type } = shapeQuery(CurrencyQuerySchema, query(request));
      if (type === null) return failure(ctx, { type: "errors.bad_request" });
      return ok(ctx, (await listWithdrawCurrencies(ctx, type)).map(toWireCurrency));
    },
  },
  "/api/account/draw": { GET: draw, POST: draw },
  "/api/account/draw_list": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const q = shapeQuery(RecordsQuerySchema, query(request));
      if (q.type === null) return failure(ctx, { type: "errors.bad_request" });
      const page = await listWithdrawals(ctx, user.id, q.type === "all" ? null : q.type, q.page);
      return ok(ctx, { data: page.records.map((w) => toWireRecord(ctx, w)), total: page.total, page: page.page, last_page: page.lastPage });
    },
  },
  "/api/wallet/get_draw_method": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const q = shapeQuery(MethodQuerySchema, query(request));
      if (q.one) {
        const method = q.id !== null ? await findMethod(ctx, user.id, q.id) : null;
        if (!method || (q.type !== null && method.drawType !== q.type)) return failure(ctx, { form: "errors.not_found" }, 404);
        return ok(ctx, toWireMethod(method));
      }
      if (q.type === null) return failure(ctx, { draw_type: "errors.bad_request" });
      return ok(ctx, (await listMethods(ctx, user.id, q.type)).map(toWireMethod));
    },
  },
  "/api/wallet/bind_draw_method": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      if (user.isDemo) return failure(ctx, { form: "errors.only_real_account" }, 403);
      const input = parseBindMethod(body);
      if (!input.ok) return failure(ctx, input.errors);
      const result = await bindMethod(ctx, user, input.value);
      if (!result.ok) return failure(ctx, result.errors, result.status);
      return ok(ctx, toWireMethod(result.value), "wallet.bound");
    },
  },
  "/api/wallet/del_draw_method": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      if (user.isDemo) return failure(ctx, { form: "errors.only_real_account" }, 403);
      const input = parseFields(DeleteMethodSchema, body);
      if (!input.ok || !(await deleteMethod(ctx, user, input.value.id))) return failure(ctx, { form: "errors.not_found" }, 404);
      return ok(ctx, null, "wallet.deleted");
    },
  },
};
