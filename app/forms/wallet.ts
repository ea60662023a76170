/**
 * The transfer form (spec §7 /api/account/transfer field names: balance, currency_id, from, to).
 * The schema checks each field's shape; the rules (accounts known and different, the amount
 * positive with at most 2 decimals and within the available balance) are the domain's
 * checkTransfer, which the service applies and answers with the field each refusal concerns.
 */
import * as v from "valibot";

const account = v.pipe(v.string("transfer.err_account"), v.trim(), v.maxLength(16, "transfer.err_account"));

export const TransferSchema = v.object({
  from: account,
  to: account,
  /** The amount as typed (conform reads an empty field as missing: the rules ask for it). */
  balance: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "transfer.err_amount_invalid"))),
  currency_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,6}$/, "transfer.err_currency"))),
  /** The form's one-time token: a double-submitted form transfers once. */
  request_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request"))),
});
export type TransferFields = v.InferOutput<typeof TransferSchema>;
