/**
 * Copy-trading forms (spec §7 field names: trader_id, multiple, max_amount). The schemas check
 * each field's shape; the rules (multiple 1–100, bond positive and within the contract balance,
 * the trader followable) are applied by app/services/copy.server.ts, which answers with the field
 * each refusal concerns, for the pages and the JSON calls alike.
 */
import * as v from "valibot";

const text = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, "errors.too_long")));

export const FollowSchema = v.object({
  trader_id: v.pipe(v.string("errors.not_found"), v.trim(), v.regex(/^\d{1,15}$/, "errors.not_found")),
  /** Conform reads an empty field as missing: the rules ask for it. */
  multiple: text(32),
  max_amount: text(32),
  /** The form's one-time token (a double-submitted form follows once; the unique key holds anyway). */
  request_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request"))),
});
export type FollowFields = v.InferOutput<typeof FollowSchema>;

export const ApplySchema = v.object({
  /** The agreement checkbox ("on" when ticked). */
  agree: v.optional(v.string()),
});

export const CopyStopSchema = v.object({
  trader_id: v.pipe(v.string("errors.not_found"), v.trim(), v.regex(/^\d{1,15}$/, "errors.not_found")),
  copy_stop_loss: text(32),
});
