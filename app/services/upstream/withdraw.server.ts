/**
 * Upstream mode's withdrawals and payout methods (issue 23, ADR 024): the currencies on offer
 * (§7 draw_symbol_list), the user's methods (get_draw_method, bind_draw_method, del_draw_method),
 * requests (draw) and records (draw_list), read back into the platform's shapes, so the withdraw
 * and payout-method pages do not change. The front end checks a request with the same domain
 * rule (checkWithdrawal) against the backend's currency and balance before asking it; the
 * backend decides and locks the money. The form's token goes along as `request_id`.
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import { DrawType, type WithdrawStatus } from "~/domain/withdraw";
import type { MethodInput } from "~/forms/withdraw";
import { fail, type Outcome } from "~/services/outcome";
import type { PayoutMethod } from "~/services/withdraw/methods.server";
import type { WithdrawalPage, WithdrawalRow, WithdrawCurrency } from "~/services/withdraw/queries.server";
import type { UpstreamAnswer } from "./client.server";
import { callAsUser } from "./sessions.server";
import { Amount, commandFailed, Decimal, Int, itemsOf, readOf, RequiredTime, Text, Time, type UpstreamRead } from "./wire";

const Type = v.pipe(Int, v.picklist([1, 2]));

const Currency = v.object({
  id: v.pipe(Int, v.minValue(1)),
  draw_type: Type,
  code: Text(20),
  protocol: Text(40),
  draw_rate: Decimal,
  fee_type: Int,
  usd_price: Decimal,
  min_amount: v.optional(Amount, "0"),
});
const Method = v.object({
  id: v.pipe(Int, v.minValue(1)),
  draw_type: Type,
  dc_address: Text(200),
  bank_name: Text(200),
  bank_address: Text(300),
  bank_swift: Text(40),
  payee_name: Text(200),
  payee_account: Text(100),
  draw_currency_id: Int,
  draw_currency: v.optional(v.nullable(v.object({ code: Text(20), protocol: Text(40) })), null),
  created_at: v.pipe(
    Time,
    v.transform((x) => x ?? 0),
  ),
});
const Record = v.object({
  id: v.pipe(Int, v.minValue(1)),
  number: Amount,
  real_number: Text(40),
  draw_currency: v.object({ id: Int, code: Text(20) }),
  fee: v.optional(Amount, "0"),
  status: Int,
  created_at: RequiredTime,
  type: Type,
  address: Text(200),
  payee_account: Text(100),
  memo: Text(500),
  notes: Text(500),
  tx_id: Text(200),
});
const RecordPage = v.object({
  data: v.array(v.unknown()),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
});

function toCurrency(c: v.InferOutput<typeof Currency>): WithdrawCurrency {
  return {
    id: c.id,
    drawType: c.draw_type as DrawType,
    code: c.code,
    protocol: c.protocol,
    drawRate: c.draw_rate,
    feeType: c.fee_type,
    usdPrice: c.usd_price,
    minAmount: c.min_amount,
  };
}

function toMethod(m: v.InferOutput<typeof Method>): PayoutMethod {
  return {
    id: m.id,
    drawType: m.draw_type as DrawType,
    drawCurrencyId: m.draw_currency_id,
    code: m.draw_currency?.code ?? "",
    protocol: m.draw_currency?.protocol ?? "",
    dcAddress: m.dc_address,
    bankName: m.bank_name,
    bankAddress: m.bank_address,
    bankSwift: m.bank_swift,
    payeeName: m.payee_name,
    payeeAccount: m.payee_account,
    createdAt: m.created_at,
  };
}

function toRecord(r: v.InferOutput<typeof Record>, userId: number): WithdrawalRow {
  return {
    id: r.id,
    userId,
    drawCurrencyId: r.draw_currency.id,
    methodId: 0,
    type: r.type as DrawType,
    currencyCode: r.draw_currency.code,
    amount: r.number,
    fee: r.fee,
    realNumber: r.real_number,
    address: r.address,
    payeeAccount: r.payee_account,
    memo: r.memo,
    status: r.status as WithdrawStatus,
    notes: r.notes,
    txId: r.tx_id || null,
    // the record's explorer page is the backend's to state; ours needs the network, which it does not carry
    txNetwork: null,
    reviewedAt: null,
    createdAt: r.created_at,
  };
}

function readAll<S extends v.GenericSchema>(answer: UpstreamAnswer<unknown>, item: S): UpstreamRead<v.InferOutput<S>[]> {
  const list = readOf(answer, v.array(v.unknown()));
  return list.ok ? { ok: true, value: itemsOf(list.value, item) } : list;
}

/** The currencies on offer for a method type (spec §7 draw_symbol_list, asked as the user). */
export async function upstreamCurrencies(ctx: AppContext, drawType: DrawType): Promise<UpstreamRead<WithdrawCurrency[]>> {
  const read = readAll(
    await callAsUser(ctx, { method: "GET", path: "/api/account/draw_symbol_list", params: { type: drawType }, read: true }),
    Currency,
  );
  return read.ok ? { ok: true, value: read.value.map(toCurrency).filter((c) => c.drawType === drawType) } : read;
}

/** The user's payout methods of a type (spec §7 get_draw_method). */
export async function upstreamMethods(ctx: AppContext, drawType: DrawType): Promise<UpstreamRead<PayoutMethod[]>> {
  const read = readAll(
    await callAsUser(ctx, { method: "GET", path: "/api/wallet/get_draw_method", params: { draw_type: drawType }, read: true }),
    Method,
  );
  return read.ok ? { ok: true, value: read.value.map(toMethod).filter((m) => m.drawType === drawType) } : read;
}

/** Binds a payout method (spec §7 bind_draw_method); the backend checks the address and the limit. */
export async function upstreamBindMethod(ctx: AppContext, input: MethodInput): Promise<Outcome<{ id: number }>> {
  const answer = await callAsUser<unknown>(ctx, { method: "POST", path: "/api/wallet/bind_draw_method", params: { ...input } });
  if (!answer.ok)
    return commandFailed(answer, [
      "draw_currency_id",
      "dc_address",
      "bank_name",
      "bank_address",
      "bank_swift",
      "payee_name",
      "payee_account",
    ]);
  const made = v.safeParse(v.object({ id: v.pipe(Int, v.minValue(1)) }), answer.data);
  return { ok: true, value: { id: made.success ? made.output.id : 0 } };
}

/** Deletes a payout method (spec §7 del_draw_method): false when the backend has none to delete. */
export async function upstreamDeleteMethod(ctx: AppContext, id: number): Promise<boolean> {
  const answer = await callAsUser(ctx, { method: "POST", path: "/api/wallet/del_draw_method", params: { id } });
  return answer.ok;
}

/** Requests a withdrawal (spec §7 draw), with the form's token; the backend locks the amount. */
export async function upstreamDraw(
  ctx: AppContext,
  userId: number,
  input: { drawCurrencyId: number; methodId: number; amount: string; memo: string; requestId?: string },
): Promise<Outcome<WithdrawalRow>> {
  const answer = await callAsUser<unknown>(ctx, {
    method: "POST",
    path: "/api/account/draw",
    params: {
      draw_currency_id: input.drawCurrencyId,
      draw_method_id: input.methodId,
      number: input.amount,
      memo: input.memo,
      request_id: input.requestId,
    },
  });
  if (!answer.ok) return commandFailed(answer, ["number", "draw_currency_id", "draw_method_id", "memo"]);
  const parsed = v.safeParse(Record, answer.data);
  return parsed.success ? { ok: true, value: toRecord(parsed.output, userId) } : fail({ form: "errors.outcome_unknown" }, 503);
}

/** The user's records (spec §7 draw_list), newest first. */
export async function upstreamWithdrawals(
  ctx: AppContext,
  userId: number,
  drawType: DrawType | null,
  page: number,
): Promise<UpstreamRead<WithdrawalPage>> {
  const answer = await callAsUser(ctx, {
    method: "GET",
    path: "/api/account/draw_list",
    params: { type: drawType ?? undefined, page },
    read: true,
  });
  if (!answer.ok) return { ok: false, kind: answer.kind === "session_ended" ? "session_ended" : "unavailable" };
  const list = v.safeParse(RecordPage, answer.data);
  if (!list.success) return { ok: false, kind: "unavailable" };
  const records = itemsOf(list.output.data, Record).map((r) => toRecord(r, userId));
  return { ok: true, value: { records, total: list.output.total, page: list.output.page, lastPage: Math.max(1, list.output.last_page) } };
}

export { DrawType };
