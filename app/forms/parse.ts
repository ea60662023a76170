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
export function shapeQuery<S extends v.GenericSchema>(schema: S, data: URLSearchParams): v.InferOutput<S> {
  return v.parse(schema, Object.fromEntries(cleanFields(data)));
}

/** Errors keyed by a command's fields, keyed by the form's (or the API's) names instead; unnamed fields keep theirs. */
export function renameFields(errors: FieldErrors, names: Partial<Record<string, string>>): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, message] of Object.entries(errors)) out[names[field] ?? field] = message;
  return out;
}

/**
 * A call's query parameters read with a schema as sent (an empty parameter stays "", unlike a
 * form's missing field): the value, or the first error key of each parameter.
 */
export function parseQuery<S extends v.GenericSchema>(schema: S, data: URLSearchParams): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, Object.fromEntries(cleanFields(data)));
  if (result.success) return { ok: true, value: result.output };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const field = typeof key === "string" ? key : "form";
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
