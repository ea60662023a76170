/**
 * The timed option command (spec §7 /v2/api/micro/submit field names), for the trade page's
 * future tab and the JSON API alike. The schema checks the shape of each field and yields the
 * typed command (app/domain/option.ts BuyCommand); the rules (a duration on offer, the amount's
 * format, its minimum for the duration, the balance, the market being open) are the service's
 * (buyOption), which refuses by command field; `buyErrorsOf` names the form's fields.
 */
import * as v from "valibot";
import type { BuyCommand } from "~/domain/option";
import { renameFields, type FieldErrors } from "./parse";

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The option's fields; `direction` answers a missing or unknown direction (the page asks for a button, the API answers a bad request). */
function optionSchema(direction: string) {
  return v.pipe(
    v.object({
      forex_id: v.pipe(v.string("errors.instrument_not_found"), v.regex(/^\d{1,9}$/, "errors.instrument_not_found"), v.transform(Number)),
      /** Type, from the pressed button: 1 up, 2 down (Enter alone presses neither: see below). */
      type: v.optional(v.picklist(["1", "2"], direction)),
      /** The stake as typed (conform reads an empty field as missing: the service asks for it). */
      number: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.amount_invalid"))),
      seconds: v.pipe(v.string("errors.unknown_duration"), v.regex(/^\d{1,9}$/, "errors.unknown_duration"), v.transform(Number)),
      /** The form's one-time token: a double-submitted form buys one option. */
      request_id: v.optional(v.pipe(v.string(), v.regex(REQUEST_ID, "errors.bad_request"))),
    }),
    v.forward(
      v.check((input) => input.type !== undefined, direction),
      ["type"],
    ),
  );
}

/** The future tab's form. */
export const OptionSchema = optionSchema("options.choose_direction");
export type OptionInput = v.InferOutput<typeof OptionSchema>;

/** /v2/api/micro/submit: the same fields. */
export const ApiOptionSchema = optionSchema("errors.bad_request");

/** The API's parameters as the form's fields: a malformed request id is ignored (the option is then not deduplicated), as it always has been. */
export function optionFieldsOfApi(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(params);
  if (out.has("request_id") && !REQUEST_ID.test(out.get("request_id")!)) out.delete("request_id");
  return out;
}

/** The command. */
export function buyCommandOf(value: OptionInput): BuyCommand {
  return {
    instrumentId: value.forex_id,
    direction: value.type === "2" ? 2 : 1,
    amount: value.number ?? "",
    seconds: value.seconds,
    requestKey: value.request_id,
  };
}

/** A refusal of buyOption by form field. */
export function buyErrorsOf(errors: FieldErrors): FieldErrors {
  return renameFields(errors, {
    instrumentId: "forex_id",
    direction: "type",
    amount: "number",
    seconds: "seconds",
    requestKey: "request_id",
  });
}

/** The options list of /v2/api/micro/orders: 1 in transaction, 3 closed (read as numbers, "" is 0). */
export const OptionListSchema = v.object({
  status: v.pipe(
    v.optional(v.string(), "1"),
    v.transform(Number),
    v.check((s) => s === 1 || s === 3, "errors.bad_request"),
  ),
  page: v.pipe(v.optional(v.string(), "1"), v.transform(Number)),
});
