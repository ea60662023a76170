/**
 * How upstream mode's adapters read the backend's answers (issue 23, ADR 024): the contract's
 * field shapes as valibot schemas (integers, exact amounts, decimal text, times), and the two
 * ways an answer ends up on a page: a read's value or why there is none (`readOf`), and a
 * command's refusal or unknown outcome (`commandFailed`). One place, so every area reads the
 * contract the same way.
 */
import * as v from "valibot";
import { decimalToMicros, type Micros } from "~/domain/money";
import { fail, type Outcome } from "~/services/outcome";
import type { UpstreamAnswer } from "./client.server";
import { refusedBy } from "./sessions.server";

/** What an adapter's read of the user's own data gives: the value, or why there is none. */
export type UpstreamRead<T> = { ok: true; value: T } | { ok: false; kind: "session_ended" | "unavailable" };

/** An integer, as a JSON number or its text. */
export const Int = v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d{1,15}$/))]), v.transform(Number), v.integer());

/** An amount, as decimal text or a JSON number, read exactly into micros (decimalToMicros). */
export const Amount = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((x) => decimalToMicros(x)),
  v.custom<Micros>((x) => x !== null, "not an amount"),
);

/** A non-negative decimal kept as text ("0.0005", "1.25"): rates, ratios, percentages, lot steps. */
export const Decimal = v.pipe(
  v.union([v.number(), v.string()]),
  v.transform((x) => String(x).trim()),
  v.regex(/^\d{1,12}(\.\d{1,10})?$/),
);

/** Text up to `max` characters; absent or null is "". */
export const Text = (max: number) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.string(), v.number()])), ""),
    v.transform((x) => String(x ?? "")),
    v.maxLength(max),
  );

/** "2026-12-08 09:30:00" (UTC, as the contract writes times), an ISO time, or epoch milliseconds. */
export function timeOf(x: number | string | null | undefined): number | null {
  if (typeof x === "number") return Number.isFinite(x) ? x : null;
  if (!x) return null;
  const ms = Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(x) ? x : `${x.slice(0, 19).replace(" ", "T")}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** A time that may be absent (null). */
export const Time = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.string()])), null),
  v.transform((x: number | string | null) => timeOf(x)),
);

/** A time that must be there. */
export const RequiredTime = v.pipe(
  Time,
  v.custom<number>((x) => x !== null, "not a time"),
);

/** A read's answer in the schema's shape, or why there is none (a malformed answer is the backend being unwell). */
export function readOf<S extends v.GenericSchema>(answer: UpstreamAnswer<unknown>, schema: S): UpstreamRead<v.InferOutput<S>> {
  if (!answer.ok) return { ok: false, kind: answer.kind === "session_ended" ? "session_ended" : "unavailable" };
  const parsed = v.safeParse(schema, answer.data);
  if (!parsed.success) console.error("upstream: an answer does not match the contract", parsed.issues[0]?.message);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, kind: "unavailable" };
}

/** A list's items that match the schema (one the contract does not describe is left out, and logged). */
export function itemsOf<S extends v.GenericSchema>(items: unknown[], schema: S): v.InferOutput<S>[] {
  return items.flatMap((item) => {
    const parsed = v.safeParse(schema, item);
    if (!parsed.success) console.error("upstream: a list item does not match the contract and is left out");
    return parsed.success ? [parsed.output] : [];
  });
}

/**
 * A command's failure: the session over, an outcome nobody can know yet (its answer never came;
 * it is never sent again), or the backend's refusal in its own words, on the field it names when
 * the form shows it (`shown`).
 */
export function commandFailed(answer: Extract<UpstreamAnswer<unknown>, { ok: false }>, shown: readonly string[] = []): Outcome<never> {
  if (answer.kind === "session_ended") return fail({ form: "errors.session_invalid" }, 401);
  if (answer.kind === "unavailable" && answer.outcomeUnknown) return fail({ form: "errors.outcome_unknown" }, 503);
  return refusedBy(answer, 400, shown);
}
