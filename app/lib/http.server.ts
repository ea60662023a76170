/** HTTP helpers shared by the Worker entry, the JSON API and Remix actions. */
import { formToObject } from "~/lib/validation";

/** The spec §8 envelope: code 1 success, 999 invalid session, anything else shows msg. */
export const ApiCode = { Ok: 1, Error: 0, InvalidSession: 999 } as const;

export function envelope(code: number, msg: string, data: unknown = null, status = 200) {
  return Response.json({ code, msg, data }, { status, headers: { "cache-control": "no-store" } });
}

/**
 * Cross-site request forgery guard for state-changing requests: an Origin (or, failing that, a
 * Referer) from another site is refused, and so is a browser's explicit cross-site fetch.
 * Requests authenticated only by the `authorization` header carry no ambient credentials and
 * are not at risk.
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  const url = new URL(request.url);
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") return origin !== url.origin;
  if (origin === "null") return !request.headers.get("authorization");
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      return new URL(referer).origin !== url.origin;
    } catch {
      return true;
    }
  }
  return request.headers.get("sec-fetch-site") === "cross-site";
}

export const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

/**
 * Pages may load scripts, styles and images only from this origin (Remix's inline hydration
 * scripts need 'unsafe-inline'), talk only to this origin (HTTP and the /v2/ws socket), and
 * cannot be framed or post forms elsewhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export function withSecurityHeaders(response: Response, request?: Request): Response {
  if (response.status === 101 || response.webSocket) return response;
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
  if ((headers.get("content-type") ?? "").includes("text/html") && !headers.has("content-security-policy")) {
    headers.set("content-security-policy", CONTENT_SECURITY_POLICY);
  }
  if (request && new URL(request.url).protocol === "https:") headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Reads form fields from urlencoded, multipart or JSON bodies, bounded in size. */
export async function readBody(request: Request, maxBytes = 64 * 1024): Promise<Record<string, string> | null> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBytes) return null;
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const text = await request.text();
      if (text.length > maxBytes) return null;
      const json: unknown = text ? JSON.parse(text) : {};
      return json && typeof json === "object" && !Array.isArray(json) ? formToObject(json as Record<string, unknown>) : {};
    }
    if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
      return formToObject(await request.formData());
    }
    const text = await request.text();
    if (text.length > maxBytes) return null;
    return formToObject(Object.fromEntries(new URLSearchParams(text)));
  } catch {
    return null;
  }
}

export const MAX_FORM_BYTES = 64 * 1024;

/**
 * A form body for a route action: never throws for malformed input (no body, wrong content
 * type, broken encoding → an empty form, so validation answers with field errors); an
 * oversized body is refused with 413.
 */
export async function readForm(request: Request): Promise<FormData> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_FORM_BYTES) throw new Response("Request too large", { status: 413 });
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/x-www-form-urlencoded") && !type.includes("multipart/form-data")) return new FormData();
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}
