/**
 * Withdrawal forms (spec §7 field names): the request (draw_currency_id, number, memo,
 * draw_method_id, plus the form's one-time request_id) and binding a payout method (draw_type and
 * the spec §3 Draw method fields). The schemas check each field's shape; the rules that need the
 * database (the currency's minimum and network, the balance, the method's owner) are the
 * services' (app/services/withdraw/), which answers with the field each refusal concerns.
 */
import * as v from "valibot";
import { DrawType, isValidSwift } from "~/domain/withdraw";
import { printable } from "./fields";
import { parseFields, shapeQuery, type Parsed } from "./parse";

const idOf = (message: string) => v.pipe(v.string(message), v.trim(), v.regex(/^\d{1,15}$/, message), v.transform(Number));
const requestId = v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request")));

export const WithdrawSchema = v.object({
  draw_currency_id: idOf("withdraw.choose_currency"),
  draw_method_id: idOf("withdraw.choose_method"),
  /** The amount in USD as typed (conform reads an empty field as missing: the service asks for it). */
  number: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.amount_invalid"))),
  memo: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "errors.too_long"), printable)),
  request_id: requestId,
});
export type WithdrawInput = v.InferOutput<typeof WithdrawSchema>;

/** The service's input. */
export function withdrawInputOf(value: WithdrawInput) {
  return {
    drawCurrencyId: value.draw_currency_id,
    methodId: value.draw_method_id,
    amount: value.number ?? "",
    memo: value.memo ?? "",
    requestId: value.request_id,
  };
}

const text = (required: string, max: number) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, "errors.too_long"), printable);

export const CoinMethodSchema = v.object({
  draw_type: v.literal("1", "errors.bad_request"),
  draw_currency_id: idOf("withdraw.choose_currency"),
  dc_address: v.pipe(text("wallet.address_required", 128), v.regex(/^\S+$/, "wallet.address_invalid")),
});

export const BankMethodSchema = v.object({
  draw_type: v.literal("2", "errors.bad_request"),
  draw_currency_id: idOf("withdraw.choose_currency"),
  bank_name: text("wallet.bank_name_required", 100),
  bank_address: text("wallet.bank_address_required", 200),
  bank_swift: v.pipe(
    text("wallet.swift_required", 20),
    v.transform((s) => s.replace(/\s+/g, "").toUpperCase()),
    v.check(isValidSwift, "wallet.swift_invalid"),
  ),
  payee_name: text("wallet.payee_name_required", 100),
  payee_account: v.pipe(
    text("wallet.payee_account_required", 64),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,62}[A-Za-z0-9]$/, "wallet.payee_account_invalid"),
  ),
});

export type CoinMethodInput = v.InferOutput<typeof CoinMethodSchema>;
export type BankMethodInput = v.InferOutput<typeof BankMethodSchema>;

export const DeleteMethodSchema = v.object({ id: idOf("errors.not_found") });

export type MethodInput = CoinMethodInput | BankMethodInput;

const raw = v.optional(v.string());
const drawTypeOf = (value: string | undefined): DrawType | null => (value === "1" ? DrawType.Coin : value === "2" ? DrawType.Bank : null);

/** Binding a method (spec §7 bind_draw_method): the coin or the bank form, by draw_type (anything else: refused on draw_type). */
export function parseBindMethod(data: URLSearchParams): Parsed<MethodInput> {
  const type = shapeQuery(v.object({ draw_type: raw }), data).draw_type;
  if (type === "1") return parseFields(CoinMethodSchema, data);
  if (type === "2") return parseFields(BankMethodSchema, data);
  return { ok: false, errors: { draw_type: "errors.bad_request" } };
}

/** The currencies on offer (spec §7 draw_symbol_list): of method type 1 (coin, when not sent) or 2 (bank); null for any other. */
export const CurrencyQuerySchema = v.pipe(
  v.object({ type: raw }),
  v.transform((q) => ({ type: drawTypeOf(q.type ?? "1") })),
);

/** The user's records (spec §7 draw_list): of every type (none sent) or one (null when unknown), and the page as sent. */
export const RecordsQuerySchema = v.pipe(
  v.object({ type: raw, page: raw }),
  v.transform((q) => ({
    type: q.type === undefined || q.type === "" ? ("all" as const) : drawTypeOf(q.type),
    page: Number(q.page ?? "1"),
  })),
);

/**
 * The user's methods (spec §7 get_draw_method): with draw_id, that one method (id null when it is
 * not one; draw_type, when sent, must match); without, the list of type draw_type (1 when not sent;
 * null for any other).
 */
export const MethodQuerySchema = v.pipe(
  v.object({ draw_id: raw, draw_type: raw }),
  v.transform((q) =>
    q.draw_id
      ? { one: true as const, id: /^\d{1,15}$/.test(q.draw_id) ? Number(q.draw_id) : null, type: drawTypeOf(q.draw_type) }
      : { one: false as const, type: drawTypeOf(q.draw_type ?? "1") },
  ),
);
