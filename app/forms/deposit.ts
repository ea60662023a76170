/**
 * The deposit forms (spec §7 quickCharge field names: number, proofImg, address, charge_id,
 * wire_id; plus unit — USD or coin count — and the form's one-time request_id). The schema
 * checks only the shape (bounded strings); every rule is the service's (checkDeposit), which
 * answers with all refusals at once, for the page and the JSON API alike.
 */
import * as v from "valibot";
import { MAX_SENDER_ADDRESS } from "~/domain/deposit";

const text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, "errors.too_long")));

export const DepositSchema = v.object({
  charge_id: text(12),
  wire_id: text(12),
  number: text(40),
  unit: v.optional(v.picklist(["usd", "coin"], "errors.bad_request")),
  address: text(MAX_SENDER_ADDRESS),
  proofImg: text(200),
  request_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request"))),
});
export type DepositFormInput = v.InferOutput<typeof DepositSchema>;

/** A review decision posted by the operator's queue. */
export const ReviewSchema = v.object({
  id: v.pipe(v.string("errors.not_found"), v.trim(), v.regex(/^\d{1,12}$/, "errors.not_found"), v.transform(Number)),
  reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, "errors.too_long"))),
});
