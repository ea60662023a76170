/**
 * Web-app helpers for loaders and actions: guards that throw redirects, post/redirect/get with
 * a flash message (a toast that works with and without JavaScript), and session cookies.
 */
import { serves } from "~/lib/upstream-areas";
import { createCookie, redirect } from "@remix-run/cloudflare";
import type { AppContext } from "~/context.server";
import { safeRedirect } from "~/lib/redirect";
import { DEMO_TTL_MS } from "~/services/demo.server";
import { sessionCookie, type SessionUser } from "~/services/session.server";
import { deviceSetCookie, type Device } from "~/services/auth/devices.server";
import type { UpstreamRead } from "~/services/upstream/wire";

export { safeRedirect };

export interface Flash {
  kind: "success" | "error" | "info";
  /** An i18n key (or "key|arg"). */
  message: string;
}

const flashCookieFor = (context: AppContext) =>
  createCookie("bourse_flash", { path: "/", httpOnly: true, sameSite: "lax", secure: true, secrets: [context.config.sessionSecret] });

export async function flashHeader(context: AppContext, flash: Flash) {
  return flashCookieFor(context).serialize(flash, { maxAge: 60 });
}

/** Reads the flash of this request and returns the header that clears it. */
export async function readFlash(context: AppContext, request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const header = request.headers.get("cookie");
  if (!header?.includes("bourse_flash=")) return { flash: null, clear: null };
  const cookie = flashCookieFor(context);
  const value = (await cookie.parse(header).catch(() => null)) as Flash | null;
  const clear = await cookie.serialize("", { maxAge: 0 });
  if (!value || typeof value.message !== "string") return { flash: null, clear };
  return { flash: value, clear };
}

export async function redirectWithFlash(context: AppContext, to: string, flash: Flash, headers: HeadersInit = {}) {
  const h = new Headers(headers);
  h.append("Set-Cookie", await flashHeader(context, flash));
  return redirect(to, { headers: h });
}

/** Where a signed-in user's account lives: the user centre, or home where upstream mode does not serve it yet. */
export function accountHome(context: AppContext): string {
  return serves(context.config.platform.kind, "/user") ? "/user" : "/";
}

export function loginRedirectPath(request: Request) {
  const url = new URL(request.url);
  return `/login?from=${encodeURIComponent(url.pathname + url.search)}`;
}

/** Login-required pages: no valid session → /login?from=<path> (the spec's code 999). */
export async function requireUser(context: AppContext, request: Request): Promise<SessionUser> {
  const user = await context.user();
  if (!user) return signInAgain(context, request);
  return user;
}

/**
 * The value of a read of the user's own data (services' `my…` functions): in upstream mode the
 * backend may have ended the session (to /login with this page) or not answered (the page's
 * "service unavailable, retrying" answer, 503; ADR 024). Locally a read always has its value.
 */
export async function valueOf<T>(context: AppContext, request: Request, read: UpstreamRead<T>): Promise<T> {
  if (read.ok) return read.value;
  if (read.kind === "session_ended") return signInAgain(context, request);
  throw new Response("Service unavailable", { status: 503, headers: { "cache-control": "no-store" } });
}

/**
 * The session is over (none, expired, or the backend's 999 in upstream mode): to /login with the
 * page the user was on, dropping the stale cookie so the browser stops sending it.
 */
export async function signInAgain(context: AppContext, request: Request): Promise<never> {
  const headers = new Headers();
  if (request.headers.get("cookie")?.includes("__Host-bourse_session")) {
    headers.append("Set-Cookie", await sessionCookie(context.config).serialize("", { maxAge: 0 }));
  }
  throw redirect(loginRedirectPath(request), { headers });
}

/** Deposit, withdraw, transfer, real-name, invite and password reset refuse demo users (spec §5). */
export async function requireRealUser(context: AppContext, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request);
  if (user.isDemo) throw await redirectWithFlash(context, "/user", { kind: "error", message: "errors.only_real_account" });
  return user;
}

export async function sessionSetCookie(context: AppContext, token: string) {
  return sessionCookie(context.config).serialize(token);
}

/** The cookies of a sign-in's answer: the session, and the browser's device cookie when it is new. */
export async function signedInCookies(context: AppContext, token: string, device: Device): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionSetCookie(context, token));
  const deviceCookie = deviceSetCookie(device);
  if (deviceCookie) headers.append("Set-Cookie", await deviceCookie);
  return headers;
}

export async function sessionClearCookie(context: AppContext) {
  return sessionCookie(context.config).serialize("", { maxAge: 0 });
}

export const DEMO_COOKIE = "bourse_demo_id";
/** The demo id kept by this browser (the spec's locally kept uuid); it lives as long as an unused demo account. */
export const demoCookie = createCookie(DEMO_COOKIE, {
  path: "/",
  httpOnly: true,
  secure: true,
  sameSite: "lax",
  maxAge: DEMO_TTL_MS / 1000,
});
