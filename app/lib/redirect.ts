/**
 * Where a response may send the browser: the one check every redirect target goes through
 * (`from`, `redirectTo`, back links), and the desktop site's redirect built on it.
 */
import { isDesktopUserAgent, onPcHost } from "~/domain/device";

export const DEFAULT_REDIRECT = "/";
const MAX_LENGTH = 512;

function unsafe(path: string): boolean {
  return (
    !path.startsWith("/") || /^\/[\s/]/u.test(path) || path.includes("\\") || /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/u.test(path)
  );
}

/**
 * The one check every redirect target goes through (`from`, `redirectTo`, back links).
 * Accepted: a path on this site, i.e. a single leading "/", printable ASCII only, and, once
 * percent-decoded (once or twice), still a single leading "/" with no backslash and no control
 * character (browsers drop tabs and newlines from URLs, so "/\t/evil.example" means
 * "//evil.example"; a raw space, tab or newline is refused outright).
 * Anything else gives the fallback.
 */
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

/** Paths that are never moved to the pc host: the JSON API, the socket, rooms and local tooling. */
const NOT_PAGES = /^\/(?:api|v2|parties|__scheduled|dev)(?:\/|$)/;

/**
 * Where a request should go instead, or null: a desktop browser's GET/HEAD of a page on a host
 * other than the pc host goes to the same path and query on the pc host (the path and query
 * pass the same check as every other redirect; an unsafe one lands on the pc host's home).
 */
export function desktopRedirect(request: { url: URL; method: string; userAgent: string | null }, pcHost: string | null): string | null {
  if (!pcHost || onPcHost(request.url, pcHost)) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (NOT_PAGES.test(request.url.pathname)) return null;
  if (!isDesktopUserAgent(request.userAgent)) return null;
  const path = safeRedirect(`${request.url.pathname}${request.url.search}`);
  return `${request.url.protocol}//${pcHost}${path}`;
}
