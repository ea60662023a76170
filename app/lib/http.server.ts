/** HTTP helpers shared by the Worker entry, the JSON API and Remix actions. */
import { timingSafeEqual } from "~/lib/encoding";
import { cleanFields } from "~/lib/fields";

export function envelope(code: number, msg: string, data: unknown = null, status = 200) {
  return Response.json({ code, msg, data }, { status, headers: { "cache-control": "private, no-store" } });
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

/** A front end in upstream mode names the browser's address here (ADR 024)… */
export const FORWARDED_CLIENT_HEADER = "x-bourse-client-ip";
/** …and proves it may with the shared secret here. */
export const FORWARDED_SECRET_HEADER = "x-bourse-upstream-secret";

/**
 * The client a request comes from, as Cloudflare reports it (CF-Connecting-IP cannot be set by
 * the client), or, for a call from our own front end in upstream mode, the browser's address it
 * forwards: only when the request carries the shared secret (`upstreamSecret`, compared in
 * constant time) and the address looks like one. Anyone else's header is ignored, so rotating it
 * escapes no limit. IPv6 addresses are keyed by their /64 network, which one subscriber holds
 * whole. Local runs without the header share one key.
 */
export function clientKeyOf(request: Request, upstreamSecret: string | null = null): string {
  const forwarded = upstreamSecret ? forwardedClient(request, upstreamSecret) : null;
  const ip = forwarded ?? request.headers.get("cf-connecting-ip")?.trim();
  if (!ip) return "local";
  if (ip.includes(":")) return `${ipv6Network(ip)}::/64`;
  return ip.slice(0, 45);
}

function forwardedClient(request: Request, secret: string): string | null {
  const given = request.headers.get(FORWARDED_SECRET_HEADER);
  const ip = request.headers.get(FORWARDED_CLIENT_HEADER)?.trim();
  if (!given || !ip || !timingSafeEqual(utf8.encode(given), utf8.encode(secret))) return null;
  return /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:.]{2,45})$/.test(ip) ? ip : null;
}

const utf8 = new TextEncoder();

/** The first four hextets of an IPv6 address ("2001:db8::1" → "2001:db8:0:0"). */
function ipv6Network(ip: string): string {
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const missing = Math.max(0, 8 - left.length - right.length);
  const full = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  return full
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ""))
    .join(":");
}

export const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "cross-origin-opener-policy": "same-origin",
};

/**
 * Pages run only scripts from this origin or carrying this response's nonce (Remix's hydration
 * scripts), talk only to this origin (HTTP and the /v2/ws socket: 'self' covers ws/wss of the
 * same host), and cannot be framed or post forms elsewhere.
 */
export function contentSecurityPolicy(nonce: string | null, frameSrc: string | null = null): string {
  return [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(frameSrc ? [`frame-src ${frameSrc}`] : []),
  ].join("; ");
}

/**
 * A page that embeds a frame (the support chat) names the frame's origin in this response
 * header; the Worker removes it and allows frames from that origin alone, on that response alone.
 */
export const FRAME_SRC_HEADER = "x-bourse-frame-src";
/**
 * Set by a response that is the same for everyone (a public news picture): it keeps its own
 * long cache even for a signed-in viewer. Removed before the response leaves.
 */
export const PUBLIC_ASSET_HEADER = "x-bourse-public-asset";

/**
 * An uploaded picture as a response: served as its sniffed type with nosniff and a CSP that forbids
 * any script or plugin (a crafted image opened directly runs nothing). "public" (a news picture, a
 * trader's avatar): an upload never changes under its id, so it is cached for a year, immutable,
 * even for a signed-in viewer. "private" (identity documents, proofs): never stored anywhere.
 * Anything not found is a plain 404.
 */
export function imageResponse(
  found: { body: ReadableStream; contentType: string; size: number } | null,
  visibility: "public" | "private",
): Response {
  const cache = visibility === "public" ? "public, max-age=31536000, immutable" : "private, no-store";
  if (!found)
    return new Response("Not Found", {
      status: 404,
      headers: { "cache-control": visibility === "public" ? "no-cache" : cache, "content-type": "text/plain; charset=utf-8" },
    });
  return new Response(found.body, {
    headers: {
      "content-type": found.contentType,
      "content-length": String(found.size),
      "cache-control": cache,
      "x-content-type-options": "nosniff",
      "content-disposition": "inline",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-origin",
      ...(visibility === "public" ? { [PUBLIC_ASSET_HEADER]: "1" } : {}),
    },
  });
}

/** The header's value when it is exactly an http(s) origin (scheme, host, optional port), else null. */
export function frameOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
}

export interface HeaderOptions {
  /** The CSP nonce of an HTML response. */
  nonce?: string | null;
  /** The request was made by (or for) a signed-in user: nothing of it may be stored by a cache. */
  private?: boolean;
  https?: boolean;
}

/**
 * Every response the Worker makes leaves through here (pages, JSON, errors, refusals): security
 * headers, the CSP for HTML, `private, no-store` for signed-in users and anything that sets a
 * cookie, HSTS on https.
 */
export function withSecurityHeaders(response: Response, options: HeaderOptions = {}): Response {
  if (response.status === 101 || response.webSocket) return response;
  const headers = new Headers(response.headers);
  const frameSrc = frameOrigin(headers.get(FRAME_SRC_HEADER));
  headers.delete(FRAME_SRC_HEADER);
  const publicAsset = headers.get(PUBLIC_ASSET_HEADER) === "1" && !headers.has("set-cookie");
  headers.delete(PUBLIC_ASSET_HEADER);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
  if ((headers.get("content-type") ?? "").includes("text/html"))
    headers.set("content-security-policy", contentSecurityPolicy(options.nonce ?? null, frameSrc));
  else if (!headers.has("content-security-policy")) headers.set("content-security-policy", "default-src 'none'; frame-ancestors 'none'");
  if ((options.private && !publicAsset) || headers.has("set-cookie")) headers.set("cache-control", "private, no-store");
  else if (!headers.has("cache-control")) headers.set("cache-control", "no-cache");
  if (options.https) headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export const MAX_FORM_BYTES = 64 * 1024;

export class BodyTooLarge extends Error {}

/**
 * The body's bytes, counted as they are read (a chunked body has no Content-Length to trust):
 * past `maxBytes` the read stops and BodyTooLarge is thrown.
 */
export async function readBytes(request: Request, maxBytes = MAX_FORM_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * The fields of a form or JSON body (urlencoded, multipart or JSON), bounded in size. Null when
 * the body cannot be read as fields; BodyTooLarge past the limit.
 */
export async function readFields(request: Request, maxBytes = MAX_FORM_BYTES): Promise<URLSearchParams | null> {
  const bytes = await readBytes(request, maxBytes);
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      const json: unknown = text.trim() ? JSON.parse(text) : {};
      return json && typeof json === "object" && !Array.isArray(json) ? cleanFields(json as Record<string, unknown>) : null;
    }
    if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
      return cleanFields(await new Response(bytes, { headers: { "content-type": type } }).formData());
    }
    return cleanFields(new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  } catch {
    return null;
  }
}

/**
 * A form body for a route action: never throws for malformed input (no body, wrong content
 * type, broken encoding → an empty form, so validation answers with field errors); an
 * oversized body (however it is sent) is refused with 413.
 */
export async function readForm(request: Request): Promise<URLSearchParams> {
  try {
    return (await readFields(request)) ?? new URLSearchParams();
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new Response("Request too large", { status: 413 });
    throw error;
  }
}
