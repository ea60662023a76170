/**
 * Parsing submitted fields with a form's schema, the same way for route actions and the JSON
 * API (conform's parseWithValibot: empty strings count as missing), after cleanFields (lib/fields.ts)
 * dropped every field name outside a plain identifier alphabet.
 */
import { parseWithValibot } from "@conform-to/valibot";
import * as v from "valibot";

import { cleanFields } from "~/lib/fields";
import type { FieldErrors } from "~/services/outcome";

export type { FieldErrors };

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The conform submission of a form (route actions reply with it). */
export function submissionOf<S extends v.GenericSchema>(schema: S, data: FormData | URLSearchParams | Record<string, unknown>) {
  return parseWithValibot(cleanFields(data), { schema });
}

/** The parsed value, or the first error key of each field ("form" for errors of the whole form). */
export function parseFields<S extends v.GenericSchema>(
  schema: S,
  data: FormData | URLSearchParams | Record<string, unknown>,
): Parsed<v.InferOutput<S>> {
  const submission = submissionOf(schema, data);
  if (submission.status === "success") return { ok: true, value: submission.value };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(submission.error ?? {})) {
    if (messages?.[0]) errors[field || "form"] = messages[0];
  }
  if (Object.keys(errors).length === 0) errors.form = "errors.bad_request";
  return { ok: false, errors };
}

/**
 * A query's parameters through a schema that shapes without refusing (pages, filters): the values
 * as sent (an empty one stays ""), the first of repeated names, odd names dropped.
 */
export function parseQuery<S extends v.GenericSchema>(schema: S, data: URLSearchParams): v.InferOutput<S> {
  return v.parse(schema, Object.fromEntries(cleanFields(data)));
}
