/**
 * The deposit forms (spec §7 quickCharge field names: number, proofImg, address, charge_id,
 * wire_id; plus unit — USD or coin count — and the form's one-time request_id), one schema for
 * the page and the JSON API. The schema checks only the shape (bounded strings; a unit other than
 * "coin" is USD, an unusable request_id none); every rule is the service's (checkDeposit), which
 * answers with all refusals at once, for the page and the JSON API alike.
 */
import * as v from "valibot";
import { DepositType, MAX_SENDER_ADDRESS, type AmountUnit } from "~/domain/deposit";
import "~/forms/fields";

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

const text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, "errors.too_long")));

export const DepositSchema = v.object({
  charge_id: text(12),
  wire_id: text(12),
  number: text(40),
  /** Coin deposits only: whether `number` is USD (default) or a coin count. */
  unit: v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string): AmountUnit => (s === "coin" ? "coin" : "usd")),
    ),
  ),
  address: text(MAX_SENDER_ADDRESS),
  /** An upload id or its URL (/uploads/<id>); "!<error>" when the file of a no-JavaScript form was refused. */
  proofImg: text(200),
  request_id: v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string) => (REQUEST_ID.test(s) ? s : undefined)),
    ),
  ),
});
export type DepositFormInput = v.InferOutput<typeof DepositSchema>;

/** A review decision posted by the operator's queue. */
export const ReviewSchema = v.object({
  id: v.pipe(v.string("errors.not_found"), v.trim(), v.regex(/^\d{1,12}$/, "errors.not_found"), v.transform(Number)),
  reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "errors.too_long"))),
});

/** The user's records (spec §7 quick_ist): of type 0 (coin) or 1 (bank), or all (anything else), and the page (1 when not a number). */
export const DepositRecordsQuerySchema = v.pipe(
  v.object({ type: v.optional(v.string()), page: v.optional(v.string()) }),
  v.transform((q) => ({
    type: q.type === "0" ? DepositType.Coin : q.type === "1" ? DepositType.Bank : null,
    page: /^\d{1,5}$/.test(q.page ?? "1") ? Number(q.page ?? "1") : 1,
  })),
);
