/**
 * Socket login. API clients send their session token; the web app, whose session cookie is
 * HttpOnly, sends a short-lived socket ticket derived from its session (so the session token
 * itself never reaches page scripts). Both are checked against the session rows in D1.
 */
import { readConfig } from "~/env.server";
import { b64url, fromB64url, sha256Hex, timingSafeEqual } from "~/services/password.server";
import { userForToken } from "~/services/session.server";

const TICKET_TTL_MS = 10 * 60_000;
const enc = new TextEncoder();

async function hmac(secret: string, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(data)));
}

/** t1.<session id>.<expiry>.<mac> */
export async function socketTicket(env: Env, sessionToken: string, now = Date.now()): Promise<string> {
  const sessionId = await sha256Hex(sessionToken);
  const expires = now + TICKET_TTL_MS;
  const mac = await hmac(readConfig(env).sessionSecret, `socket:${sessionId}:${expires}`);
  return `t1.${sessionId}.${expires}.${b64url(mac)}`;
}

/** The user id a socket login resolves to, or null. */
export async function resolveSocketLogin(env: Env, token: string, now = Date.now()): Promise<number | null> {
  if (token.startsWith("t1.")) {
    const [, sessionId, expires, mac] = token.split(".");
    if (!sessionId || !expires || !mac || !/^[0-9a-f]{64}$/.test(sessionId) || Number(expires) < now) return null;
    let given: Uint8Array;
    try {
      given = fromB64url(mac);
    } catch {
      return null;
    }
    const expected = await hmac(readConfig(env).sessionSecret, `socket:${sessionId}:${expires}`);
    if (!timingSafeEqual(given, expected)) return null;
    const row = await env.DB.prepare("SELECT user_id AS userId FROM sessions WHERE id = ?1 AND revoked_at IS NULL AND expires_at > ?2")
      .bind(sessionId, now)
      .first<{ userId: number }>();
    return row?.userId ?? null;
  }
  const user = await userForToken(env.DB, token, now);
  return user?.id ?? null;
}
