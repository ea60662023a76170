/**
 * The timed option form (spec §7 /v2/api/micro/submit field names). The schema checks the shape
 * of each field; the rules (a duration on offer, the amount's format, its minimum for the
 * duration, the balance, the market being open) are the service's (buyOption), which answers
 * with the field each refusal concerns.
 */
import * as v from "valibot";

export const OptionSchema = v.pipe(
  v.object({
    forex_id: v.pipe(v.string("errors.instrument_not_found"), v.regex(/^\d{1,9}$/, "errors.instrument_not_found"), v.transform(Number)),
    /** Type, from the pressed button: 1 up, 2 down (Enter alone presses neither: see below). */
    type: v.optional(v.picklist(["1", "2"], "options.choose_direction")),
    /** The stake as typed (conform reads an empty field as missing: the service asks for it). */
    number: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, "errors.amount_invalid"))),
    seconds: v.pipe(v.string("errors.unknown_duration"), v.regex(/^\d{1,9}$/, "errors.unknown_duration"), v.transform(Number)),
    /** The form's one-time token: a double-submitted form buys one option. */
    request_id: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.bad_request"))),
  }),
  v.forward(
    v.check((input) => input.type !== undefined, "options.choose_direction"),
    ["type"],
  ),
);
export type OptionInput = v.InferOutput<typeof OptionSchema>;

/** The service's input. */
export function buyInputOf(value: OptionInput) {
  return {
    instrumentId: value.forex_id,
    direction: Number(value.type),
    amount: value.number ?? "",
    seconds: value.seconds,
    requestKey: value.request_id,
  };
}
