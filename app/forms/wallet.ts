/**
 * The transfer form and call (spec §7 /api/account/transfer field names: balance, currency_id,
 * from, to, plus the form's one-time request_id), one schema for the page and the JSON API. The
 * schema bounds each field; the rules (accounts known and different, the amount positive with at
 * most 2 decimals and within the available balance, the accounts' currency) are the domain's
 * checkTransfer, which the service applies and answers with the field each refusal concerns,
 * first refusal first. So the accounts are optional here: a missing one is the rules' refusal.
 */
import * as v from "valibot";
// Loads the shared setup (valibot's fallback message is a translatable key).
import "~/forms/fields";
import { accountTypeOf, pageParam } from "~/domain/wallet";

const account = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(16, "transfer.err_account")));
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

export const TransferSchema = v.object({
  /** Account type ids (1–3) or the spec's names (change/micro/forex; funding/option/contract). */
  from: account,
  to: account,
  /** The amount as typed (conform reads an empty field as missing: the rules ask for it). */
  balance: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "transfer.err_amount_invalid"))),
  /** When sent, it must be the accounts' currency (the service compares). */
  currency_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(16, "transfer.err_currency"))),
  /** The form's one-time token: a double-submitted form transfers once (an unusable one: none). */
  request_id: v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string) => (REQUEST_ID.test(s) ? s : undefined)),
    ),
  ),
});
export type TransferFields = v.InferOutput<typeof TransferSchema>;

/** What the service transfers: the accounts and the amount as typed (USD, at most 2 decimals, or exactly the whole available balance). */
export interface TransferCommand {
  from: string | undefined;
  to: string | undefined;
  amount: string | undefined;
  currencyId?: string;
  requestId?: string;
}

export function transferCommandOf(f: TransferFields): TransferCommand {
  return { from: f.from, to: f.to, amount: f.balance, currencyId: f.currency_id, requestId: f.request_id };
}

const raw = v.optional(v.string());

/**
 * An account's detail or log (spec §7 forexDetail, forexChange): the account named by
 * accountTypeId or type (an id or a name; the contract account when neither is sent, null when
 * unknown) and the page.
 */
export const AccountQuerySchema = v.pipe(
  v.object({ accountTypeId: raw, type: raw, page: raw }),
  v.transform((q) => {
    const name = q.accountTypeId ?? q.type;
    return { account: name === undefined || name === "" ? 3 : accountTypeOf(name), page: pageParam(q.page) };
  }),
);

/** The transfer log (spec §7 transfer_log): every transfer ("all": no type, "" or 0), or those of one account (null when unknown), and the page. */
export const TransferLogQuerySchema = v.pipe(
  v.object({ type: raw, page: raw }),
  v.transform((q) => ({
    account: q.type === undefined || q.type === "" || q.type === "0" ? ("all" as const) : accountTypeOf(q.type),
    page: pageParam(q.page),
  })),
);
