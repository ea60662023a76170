/**
 * The one check every redirect target goes through (`from`, `redirectTo`, back links).
 * Accepted: a path on this site, i.e. a single leading "/", printable ASCII only, and, once
 * percent-decoded (once or twice), still a single leading "/" with no backslash and no control
 * character (browsers drop tabs and newlines from URLs, so "/\t/evil.example" means
 * "//evil.example"; a raw space, tab or newline is refused outright).
 * Anything else gives the fallback.
 */
export const DEFAULT_REDIRECT = "/";
const MAX_LENGTH = 512;

function unsafe(path: string): boolean {
  return (
    !path.startsWith("/") || /^\/[\s/]/u.test(path) || path.includes("\\") || /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/u.test(path)
  );
}

export function safeRedirect(to: unknown, fallback: string = DEFAULT_REDIRECT): string {
  if (typeof to !== "string" || !to || to.length > MAX_LENGTH) return fallback;
  if (!/^\/[\x21-\x7e]*$/.test(to) || unsafe(to)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  // Decoding twice catches "%252F%252F…" style double encodings as well.
  let twice = decoded;
  try {
    twice = decodeURIComponent(decoded);
  } catch {
    // a literal "%" after one decoding is fine
  }
  if (unsafe(decoded) || unsafe(twice)) return fallback;
  return to;
}
