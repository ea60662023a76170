/**
 * Socket login. API clients send their session token; the web app, whose session cookie is
 * HttpOnly, sends a short-lived socket ticket derived from its session (so the session token
 * itself never reaches page scripts). Either way the socket is bound to a session id, which the
 * live room re-checks against D1 in batches (app/services/session.server.ts liveSessions).
 */
import { readConfig } from "~/env.server";
import { b64url, fromB64url, hmacSha256, timingSafeEqual } from "~/lib/encoding";
import { sessionIdOf, tokenFromRequest } from "~/services/session.server";

const TICKET_TTL_MS = 10 * 60_000;

/** t1.<session id>.<expiry>.<mac> */
export async function socketTicket(env: Env, sessionToken: string, now = Date.now()): Promise<string> {
  const sessionId = await sessionIdOf(sessionToken);
  const expires = now + TICKET_TTL_MS;
  const mac = await hmacSha256(readConfig(env).sessionSecret, `socket:${sessionId}:${expires}`);
  return `t1.${sessionId}.${expires}.${b64url(mac)}`;
}

/**
 * The session id a socket login names, or null when the ticket is forged or expired. No D1
 * query here: the caller checks the session (and caches the answer).
 */
export async function socketSessionId(env: Env, token: string, now = Date.now()): Promise<string | null> {
  if (!token.startsWith("t1.")) return token.length <= 128 ? sessionIdOf(token) : null;
  const [, sessionId, expires, mac, extra] = token.split(".");
  if (
    extra !== undefined ||
    !sessionId ||
    !expires ||
    !mac ||
    !/^[0-9a-f]{64}$/.test(sessionId) ||
    !/^\d{1,15}$/.test(expires) ||
    Number(expires) < now
  )
    return null;
  let given: Uint8Array;
  try {
    given = fromB64url(mac);
  } catch {
    return null;
  }
  const expected = await hmacSha256(readConfig(env).sessionSecret, `socket:${sessionId}:${expires}`);
  return timingSafeEqual(given, expected) ? sessionId : null;
}

/**
 * The session id a socket upgrade carries, if any: the web app's session cookie (browsers send it
 * with the upgrade) or an API client's `authorization` header (its token, or a socket ticket).
 * No D1 query: the Worker checks the session (through its batched lookup) to route the socket to
 * its user's shard; the socket still logs in with a login frame.
 */
export async function upgradeSessionId(request: Request, env: Env, now = Date.now()): Promise<string | null> {
  const token = await tokenFromRequest(request, readConfig(env));
  return token ? socketSessionId(env, token, now) : null;
}
