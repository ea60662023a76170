/**
 * Pure rules of company (tenant) search and choice (spec §2 /product, §9 company cookie): what a
 * typed search becomes, the key a name is matched with (a bound parameter), and the company_id
 * cookie (a validated id, three years).
 */

/** The longest search kept; anything longer is cut (the input's maxLength says the same). */
export const SEARCH_MAX = 64;
/** Companies listed at most per search. */
export const COMPANY_RESULTS = 20;
/** Spec §9: the company cookie lasts three years. */
export const COMPANY_COOKIE = "company_id";
export const COMPANY_COOKIE_MAX_AGE = 3 * 365 * 24 * 60 * 60;

/** A typed search: control characters dropped, whitespace collapsed, trimmed, cut at SEARCH_MAX characters (whole code points). */
export function searchText(raw: unknown): string {
  if (typeof raw !== "string") return "";
  const clean = raw
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
  return Array.from(clean).slice(0, SEARCH_MAX).join("").trim();
}

/** A pair's code as searched: lower case without spaces, slashes, underscores or dashes ("EUR/USD" → "eurusd"). */
export function pairKey(text: string): string {
  return text.toLowerCase().replace(/[\s/_-]/g, "");
}

/** Does a pair match a search? Empty searches match everything. */
export function pairMatches(pair: { code: string; showCode: string }, search: string): boolean {
  const needle = pairKey(search);
  return !needle || pairKey(pair.code).includes(needle) || pairKey(pair.showCode).includes(needle);
}

/**
 * A name search's key: the text in lower case (matched with `instr(lower(name), ?)`, so %, _ and
 * quotes are plain characters). SQLite's lower() folds ASCII letters only: so does this.
 */
export function nameKey(search: string): string {
  return search.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** A company id from a form, a query or the cookie: digits only, a positive id below 2^31; otherwise null. */
export function parseCompanyId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}

/** The Set-Cookie value that remembers a chosen company for three years (the id must have been validated against the table). */
export function companyCookie(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("invalid company id");
  return `${COMPANY_COOKIE}=${id}; Max-Age=${COMPANY_COOKIE_MAX_AGE}; Path=/; HttpOnly; Secure; SameSite=Lax`;
}

/** The company id a Cookie header holds, if it is well formed (the caller checks it still exists). */
export function companyIdFromCookie(header: string | null): number | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COMPANY_COOKIE) return parseCompanyId(part.slice(eq + 1).trim());
  }
  return null;
}

/** A company's logo is shown only from this site (the CSP allows same-origin images alone). */
export function sameSiteImage(path: string): string {
  return /^\/(?![/\\])[A-Za-z0-9._~/-]*$/.test(path) ? path : "";
}
