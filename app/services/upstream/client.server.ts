/**
 * The §7 HTTP client of upstream mode (issue 23, ADR 024): how the Worker calls an existing
 * backend that speaks the spec's JSON contract. Every adapter of upstream mode calls through here,
 * so the contract's rules live in one place:
 *   - the spec's headers on every call (`authorization` when signed in, `lang`), and the
 *     timestamp `t` on a GET (§7);
 *   - the user's address in `x-bourse-client-ip`, which a backend trusts only with the shared
 *     secret beside it (`x-bourse-upstream-secret`), so its per-client limits keep working;
 *   - every call bounded by a timeout; a read (and only a read) asked again once after a failure
 *     that may be passing (the network, a timeout, a 5xx). Many §7 commands are GETs
 *     (/v2/api/forex/submit), so the caller says which calls are reads, never the method;
 *   - the envelope mapped to one of four outcomes: ok, refused (the backend's message, which is
 *     in the user's language by the contract), session ended (999), or unavailable. A command
 *     whose answer never came is unavailable with `outcomeUnknown`: it may have been done, and it
 *     is never sent again by itself (the page tells the user where to look).
 */
import { ApiCode } from "~/lib/api-code";

/** What one upstream backend needs (from UPSTREAM_API_URL, UPSTREAM_SHARED_SECRET). */
export interface UpstreamTarget {
  /** The backend's base address (http or https), e.g. https://api.example.com or http://127.0.0.1:8787. */
  baseUrl: string;
  /** Proves `x-bourse-client-ip` to the backend (null: the header is not sent). */
  secret: string | null;
  /** Longest wait for one answer; default UPSTREAM_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The fetch to use (tests); the Worker's own by default. */
  fetch?: typeof fetch;
}

export interface UpstreamCall {
  method: "GET" | "POST";
  /** A §7 path, starting with one "/" (e.g. /api/user/info). */
  path: string;
  /** Query (GET) or form fields (POST); undefined values are left out. */
  params?: Record<string, string | number | undefined>;
  /** The user's upstream token (kept in the server-side session, never in the page). */
  token?: string | null;
  /** The spec's language code of the page (en, hk, ar…). */
  lang: string;
  /** The address of the user's browser, as the Worker sees it. */
  clientIp?: string | null;
  /** A read: asked again once after a failure that may be passing. Commands never are. */
  read?: boolean;
}

export type UpstreamAnswer<T> =
  | { ok: true; data: T; msg: string }
  | { ok: false; kind: "refused"; msg: string; data: unknown }
  | { ok: false; kind: "session_ended" }
  | { ok: false; kind: "unavailable"; outcomeUnknown: boolean };

export const UPSTREAM_TIMEOUT_MS = 8_000;
/** An answer larger than this is refused unread (the contract's largest lists are far smaller). */
export const UPSTREAM_MAX_BYTES = 4_000_000;
export const CLIENT_IP_HEADER = "x-bourse-client-ip";
export const UPSTREAM_SECRET_HEADER = "x-bourse-upstream-secret";

/** The address of a call: the base address and the path, nothing from the path can change the host. */
export function upstreamUrl(baseUrl: string, path: string): URL {
  if (!/^\/(?!\/)[A-Za-z0-9_\-/.]*$/.test(path) || path.includes("..")) throw new Error(`not a §7 path: ${path}`);
  const base = new URL(baseUrl);
  if (base.protocol !== "https:" && base.protocol !== "http:") throw new Error("the upstream address must be http or https");
  return new URL(base.pathname.replace(/\/+$/, "") + path, base.origin);
}

/** One §7 call (see the module comment). */
export async function callUpstream<T = unknown>(target: UpstreamTarget, call: UpstreamCall): Promise<UpstreamAnswer<T>> {
  const first = await attempt<T>(target, call);
  if (first.ok || first.kind !== "unavailable" || !call.read) return first;
  return attempt<T>(target, call);
}

async function attempt<T>(target: UpstreamTarget, call: UpstreamCall): Promise<UpstreamAnswer<T>> {
  const url = upstreamUrl(target.baseUrl, call.path);
  const fields = new URLSearchParams();
  for (const [name, value] of Object.entries(call.params ?? {})) if (value !== undefined) fields.set(name, String(value));
  const headers = new Headers({ accept: "application/json", lang: call.lang });
  if (call.token) headers.set("authorization", call.token);
  if (call.clientIp && target.secret) {
    headers.set(CLIENT_IP_HEADER, call.clientIp);
    headers.set(UPSTREAM_SECRET_HEADER, target.secret);
  }
  let body: URLSearchParams | undefined;
  if (call.method === "GET") {
    fields.set("t", String(Date.now()));
    url.search = fields.toString();
  } else body = fields;
  const unavailable: UpstreamAnswer<T> = { ok: false, kind: "unavailable", outcomeUnknown: !call.read };
  let response: Response;
  try {
    response = await (target.fetch ?? fetch)(url, {
      method: call.method,
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(target.timeoutMs ?? UPSTREAM_TIMEOUT_MS),
    });
  } catch {
    return unavailable; // no answer: the network, the timeout
  }
  if (response.status >= 500 || response.status === 429 || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel();
    return unavailable;
  }
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > UPSTREAM_MAX_BYTES) {
    await response.body?.cancel();
    return unavailable;
  }
  let parsed: unknown;
  try {
    const text = await response.text();
    if (text.length > UPSTREAM_MAX_BYTES) return unavailable;
    parsed = JSON.parse(text);
  } catch {
    return unavailable; // not the contract's envelope: treated as the backend being unwell
  }
  if (!parsed || typeof parsed !== "object" || !("code" in parsed)) return unavailable;
  const { code, msg, data } = parsed as { code: unknown; msg?: unknown; data?: unknown };
  const message = typeof msg === "string" ? msg : "";
  if (Number(code) === ApiCode.Ok) return { ok: true, data: (data ?? null) as T, msg: message };
  if (Number(code) === ApiCode.InvalidSession) return { ok: false, kind: "session_ended" };
  return { ok: false, kind: "refused", msg: message, data: data ?? null };
}
