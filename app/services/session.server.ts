/**
 * Sessions: an opaque random token, carried in a signed, HttpOnly, Secure, SameSite=Lax cookie
 * (`__Host-` prefix) for the web app, or in the `authorization` header for API clients. D1 holds
 * only SHA-256(token), with expiry and revocation. See docs/decisions/004-sessions.md.
 */
import { createCookie } from "@remix-run/cloudflare";
import type { Config } from "~/env.server";
import { randomToken, sha256Hex } from "~/lib/encoding";
import type { AccountKindName } from "~/services/ledger/accounts.server";

export const SESSION_COOKIE = "__Host-bourse_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

export function sessionCookie(config: Config) {
  return createCookie(SESSION_COOKIE, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    secrets: [config.sessionSecret],
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export interface SessionUser {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  isDemo: boolean;
  isTrader: boolean;
  role: "user" | "operator";
  inviteCode: string;
  companyId: number;
  /** The linked wallet address of a web3 login user (lowercase), else null. */
  wallet: string | null;
}

interface SessionUserRow {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  isDemo: number;
  isTrader: number;
  role: "user" | "operator";
  inviteCode: string;
  companyId: number;
  /** The linked wallet address of a web3 login user (lowercase), else null. */
  wallet: string | null;
  /** The write path's read only: the user's sub-accounts as a JSON object of kind → id. */
  accounts?: string | null;
}

export async function createSession(db: D1Database, userId: number, userAgent: string, now = Date.now()) {
  const token = randomToken(32);
  await db
    .prepare("INSERT INTO sessions (id, user_id, expires_at, user_agent, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(await sha256Hex(token), userId, now + SESSION_TTL_MS, userAgent.slice(0, 200), now)
    .run();
  return token;
}

const SESSION_USER_SQL = `SELECT u.id, u.uid, u.email, u.mobile, u.is_demo AS isDemo, u.is_trader AS isTrader, u.role,
              u.invite_code AS inviteCode, u.company_id AS companyId, w.address AS wallet`;
const SESSION_FROM_SQL = `FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_wallets w ON w.user_id = u.id
        WHERE s.id = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2 AND u.status = 1`;

function sessionUserOf(row: SessionUserRow): SessionUser {
  const { accounts: _accounts, ...user } = row;
  return { ...user, isDemo: row.isDemo === 1, isTrader: row.isTrader === 1 };
}

export async function userForToken(db: D1Database, token: string, now = Date.now()): Promise<SessionUser | null> {
  if (!token || token.length > 128) return null;
  const row = await db
    .prepare(`${SESSION_USER_SQL} ${SESSION_FROM_SQL}`)
    .bind(await sha256Hex(token), now)
    .first<SessionUserRow>();
  return row ? sessionUserOf(row) : null;
}

/** The user's sub-accounts' ids by kind (funding, options, contract): they never change. */
export type SessionAccounts = Partial<Record<AccountKindName, number>>;

function accountsOf(json: string | null | undefined): SessionAccounts {
  if (!json) return {};
  const parsed = JSON.parse(json) as Record<string, unknown>;
  const out: SessionAccounts = {};
  for (const [kind, id] of Object.entries(parsed)) if (typeof id === "number") out[kind as AccountKindName] = id;
  return out;
}

/**
 * The order path's session lookup: each isolate remembers a token's user for a minute, and the
 * write itself re-checks the session inside its batch (writeSessionGuard), so an ended session can
 * never write — it only skips one read per order.
 */
const SESSION_CACHE_MS = 60_000;
const sessionCache = new Map<string, { user: SessionUser; accounts: SessionAccounts; at: number }>();

/**
 * The write path's session: the user, the session's id (for the batch's guard) and the user's
 * sub-account ids, read together (an order needs its account: one read instead of two for a
 * user this isolate has not seen).
 */
export async function sessionUserForWrite(
  db: D1Database,
  token: string,
  now = Date.now(),
): Promise<{ user: SessionUser; sessionId: string; accounts: SessionAccounts } | null> {
  if (!token || token.length > 128) return null;
  const sessionId = await sha256Hex(token);
  const known = sessionCache.get(sessionId);
  if (known && now - known.at < SESSION_CACHE_MS) return { user: known.user, sessionId, accounts: known.accounts };
  const row = await db
    .prepare(
      `${SESSION_USER_SQL}, (SELECT json_group_object(a.kind, a.id) FROM accounts a WHERE a.user_id = u.id) AS accounts ${SESSION_FROM_SQL}`,
    )
    .bind(sessionId, now)
    .first<SessionUserRow>();
  if (!row) {
    sessionCache.delete(sessionId);
    return null;
  }
  const user = sessionUserOf(row);
  const accounts = accountsOf(row.accounts);
  if (sessionCache.size >= 10_000) sessionCache.delete(sessionCache.keys().next().value!);
  sessionCache.set(sessionId, { user, accounts, at: now });
  return { user, sessionId, accounts };
}

export function forgetCachedSession(sessionId: string) {
  sessionCache.delete(sessionId);
}

/**
 * A guard statement for a write batch: it inserts a row into session_guard (whose CHECK refuses
 * every row) exactly when the session is not live, so the whole batch rolls back.
 */
export function writeSessionGuard(db: D1Database, sessionId: string, now = Date.now()): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO session_guard (session_id) SELECT ?1 WHERE NOT EXISTS (
         SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2 AND u.status = 1)`,
    )
    .bind(sessionId, now);
}

export async function revokeSession(db: D1Database, token: string, now = Date.now()) {
  await db
    .prepare("UPDATE sessions SET revoked_at = ?1 WHERE id = ?2")
    .bind(now, await sha256Hex(token))
    .run();
}

/** Ends every session of a user (a password change or reset): sockets logged in with them are logged out within seconds. */
export async function revokeAllSessions(db: D1Database, userId: number, now = Date.now()) {
  await db.prepare("UPDATE sessions SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL").bind(now, userId).run();
}

/** The stored id of a session token (its SHA-256). */
export function sessionIdOf(token: string) {
  return sha256Hex(token);
}

/**
 * Which of these session ids are still live (not revoked, not expired, user active), with their
 * users: one query for the whole set (the live socket re-checks its logged-in sockets with it).
 */
export async function liveSessions(db: D1Database, ids: string[], now = Date.now()): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    const { results } = await db
      .prepare(
        `SELECT s.id, s.user_id AS userId FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id IN (${chunk.map((_, j) => `?${j + 2}`).join(",")}) AND s.revoked_at IS NULL AND s.expires_at > ?1 AND u.status = 1`,
      )
      .bind(now, ...chunk)
      .all<{ id: string; userId: number }>();
    for (const r of results) out.set(r.id, r.userId);
  }
  return out;
}

/** Sessions past their expiry (or revoked a day ago) are dropped by the scheduled job. */
export async function pruneSessions(db: D1Database, now = Date.now()) {
  const dayAgo = now - 24 * 60 * 60_000;
  const [own, upstream] = await db.batch([
    db.prepare("DELETE FROM sessions WHERE expires_at < ?1 OR revoked_at < ?2").bind(now, dayAgo),
    // upstream mode's sessions (ADR 024) expire the same way
    db.prepare("DELETE FROM upstream_sessions WHERE expires_at < ?1 OR revoked_at < ?2").bind(now, dayAgo),
  ]);
  return (own!.meta.changes ?? 0) + (upstream!.meta.changes ?? 0);
}

/** The token of a request: `authorization` header (raw or "Bearer x") first, then the cookie. */
export async function tokenFromRequest(request: Request, config: Config): Promise<string | null> {
  const header = request.headers.get("authorization");
  if (header) {
    const token = header.replace(/^Bearer\s+/i, "").trim();
    if (token) return token;
  }
  const cookieHeader = request.headers.get("cookie");
  if (!cookieHeader?.includes(SESSION_COOKIE)) return null;
  try {
    const value = await sessionCookie(config).parse(cookieHeader);
    return typeof value === "string" ? value : null;
  } catch {
    return null; // malformed or forged cookie: treated as no session
  }
}
