/**
 * Submitted fields reduced to plain strings, before any schema sees them: shared by the body
 * readers (lib/http.server.ts) and the form parsers (forms/parse.ts). Field names outside a plain
 * identifier alphabet are dropped, so a crafted name can never reach a nested path.
 */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_VALUE = 4_000;

/** Plain string fields of a form or JSON object (files, nested values and odd names dropped). */
export function cleanFields(data: FormData | URLSearchParams | Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  const entries = data instanceof FormData || data instanceof URLSearchParams ? [...data.entries()] : Object.entries(data);
  for (const [key, value] of entries) {
    if (!FIELD_NAME.test(key) || out.has(key)) continue;
    if (typeof value === "string") out.set(key, value.slice(0, MAX_VALUE));
    else if (typeof value === "number" || typeof value === "boolean") out.set(key, String(value));
  }
  return out;
}
