/**
 * Sessions of upstream mode (issue 23, ADR 024): sign-in, the signed-in user and sign-out when an
 * existing §7 backend holds the users. The backend's login gives its token and the user's display
 * fields; our session row (`upstream_sessions`) keeps both behind our own cookie token, the
 * backend's token encrypted with a key derived from ours (only the cookie holds ours, D1 its
 * SHA-256). The page and the browser's JavaScript never see the backend's token. A 999 from the
 * backend ends our session too (`callAsUser`).
 *
 * The same `Outcome` values as the platform's sign-in (services/auth/sign-in.server.ts), which
 * hands over to these functions in upstream mode, so the login form and page do not change.
 */
import * as v from "valibot";
import type { AppContext, ServiceContext } from "~/context.server";
import type { LoginInput } from "~/forms/auth";
import { b64url, fromB64url, randomToken, sha256Hex } from "~/lib/encoding";
import { fail, type Outcome } from "~/services/outcome";
import { Backoffs, release, reserveWithBackoff } from "~/services/rate-limit.server";
import { SESSION_TTL_MS, type SessionUser } from "~/services/session.server";
import { callUpstream, type UpstreamAnswer, type UpstreamCall, type UpstreamTarget } from "./client.server";

/** The backend of this deployment (upstream mode only). */
export function upstreamTargetOf(ctx: ServiceContext): UpstreamTarget {
  const platform = ctx.config.platform;
  if (platform.kind !== "upstream") throw new Error("not in upstream mode");
  return { baseUrl: platform.apiUrl, secret: ctx.config.upstreamSecret, fetch: ctx.upstreamFetch };
}

/** The backend's login answer (§7 loginForU: token and user), checked before anything is stored. */
const LoginAnswer = v.object({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  user: v.object({
    id: v.pipe(v.number(), v.integer(), v.minValue(1)),
    uid: v.pipe(v.unknown(), v.transform(String), v.maxLength(64)),
    email: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(254))), ""),
    mobile: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(40))), ""),
    invite_code: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64))), ""),
    is_trader: v.optional(v.unknown(), 0),
    is_demo: v.optional(v.unknown(), 0),
  }),
});

/** The AES-GCM key of one session's stored backend token: derived from our token, which D1 never holds. */
async function sealingKey(token: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`bourse-upstream-token:${token}`));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function seal(token: string, upstreamToken: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(token), new TextEncoder().encode(upstreamToken)),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return b64url(out);
}

async function unseal(token: string, stored: string): Promise<string | null> {
  try {
    const bytes = fromB64url(stored);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await sealingKey(token), bytes.slice(12));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/**
 * A refusal of the backend's: its message (in the user's language by the contract), never our own
 * wording over it; on the field it names when the answer says (`data.errors`, as a Bourse backend
 * gives) and the form shows that field, else on the form.
 */
export function refusedBy(
  answer: Extract<UpstreamAnswer<unknown>, { ok: false }>,
  status = 400,
  /** The fields the form shows: an error on any other goes on the form. */
  shown: readonly string[] = [],
): Outcome<never> {
  const said = (text: string) => `errors.upstream_refused|${text.replaceAll("|", "/").slice(0, 300)}`;
  if (answer.kind === "refused") {
    const fields = (answer.data as { errors?: unknown } | null)?.errors;
    if (fields && typeof fields === "object" && !Array.isArray(fields)) {
      const errors = Object.fromEntries(
        Object.entries(fields)
          .filter(([name, text]) => shown.includes(name) && typeof text === "string" && text.trim())
          .slice(0, 8)
          .map(([name, text]) => [name, said(text as string)]),
      );
      if (Object.keys(errors).length) return fail(errors, status);
    }
    if (answer.msg.trim()) return fail({ form: said(answer.msg) }, status);
  }
  if (answer.kind === "unavailable") return fail({ form: "errors.service_unavailable" }, 503);
  return fail({ form: "errors.try_again" }, status);
}

/**
 * Sign-in through the backend's login. Our per-client backoff stays in front of it (the backend
 * limits by the forwarded address as well); the password goes to the backend only, and only the
 * backend's answer decides.
 */
export async function upstreamLogin(ctx: AppContext, input: LoginInput): Promise<Outcome<{ token: string; userId: number }>> {
  const clientSlot = `login:c:${ctx.client.key}`;
  const client = await reserveWithBackoff(ctx.d1, clientSlot, Backoffs.loginPerClient);
  if (!client.ok) return fail({ form: `errors.login_wait|${client.waitSeconds}` }, 429);
  const answer = await callUpstream<unknown>(upstreamTargetOf(ctx), {
    method: "POST",
    path: "/api/user/loginForU",
    params: { account: input.account, password: input.password, login_type: input.login_type, key: input.key, captcha: input.captcha },
    lang: ctx.lang,
    clientIp: ctx.client.ip,
  });
  if (!answer.ok) return refusedBy(answer);
  const opened = await openUpstreamSession(ctx, answer.data);
  if (opened.ok) await release(ctx.d1, clientSlot);
  return opened;
}

/**
 * Our session for the backend's answer to a sign-in (loginForU, register): its shape checked
 * before anything is stored; the backend's token sealed under our new token (see the module
 * comment). An answer that is not a sign-in is the backend being unwell: nothing is stored.
 */
export async function openUpstreamSession(ctx: AppContext, data: unknown): Promise<Outcome<{ token: string; userId: number }>> {
  const parsed = v.safeParse(LoginAnswer, data);
  if (!parsed.success) return fail({ form: "errors.service_unavailable" }, 503);
  const { token: upstreamToken, user } = parsed.output;
  const token = randomToken(32);
  const now = Date.now();
  await ctx.d1
    .prepare(
      `INSERT INTO upstream_sessions (id, upstream_token, user_id, uid, email, mobile, is_demo, is_trader, invite_code, expires_at, user_agent, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
    )
    .bind(
      await sha256Hex(token),
      await seal(token, upstreamToken),
      user.id,
      user.uid,
      user.email || null,
      user.mobile || null,
      Number(user.is_demo) === 1 ? 1 : 0,
      Number(user.is_trader) === 1 ? 1 : 0,
      user.invite_code ?? "",
      now + SESSION_TTL_MS,
      ctx.client.userAgent,
      now,
    )
    .run();
  return { ok: true, value: { token, userId: user.id } };
}

interface UpstreamSessionRow {
  userId: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  isDemo: number;
  isTrader: number;
  inviteCode: string;
  upstreamToken: string;
}

async function liveRow(db: D1Database, token: string, now = Date.now()): Promise<UpstreamSessionRow | null> {
  if (!token || token.length > 128) return null;
  return db
    .prepare(
      `SELECT user_id AS userId, uid, email, mobile, is_demo AS isDemo, is_trader AS isTrader, invite_code AS inviteCode, upstream_token AS upstreamToken
         FROM upstream_sessions WHERE id = ?1 AND revoked_at IS NULL AND expires_at > ?2`,
    )
    .bind(await sha256Hex(token), now)
    .first<UpstreamSessionRow>();
}

/** The signed-in user of an upstream session, in the platform's shape (ids are the backend's). */
export async function upstreamUserForToken(db: D1Database, token: string, now = Date.now()): Promise<SessionUser | null> {
  const row = await liveRow(db, token, now);
  if (!row) return null;
  return {
    id: row.userId,
    uid: row.uid,
    email: row.email,
    mobile: row.mobile,
    isDemo: row.isDemo === 1,
    isTrader: row.isTrader === 1,
    role: "user",
    inviteCode: row.inviteCode,
    companyId: 0,
    wallet: null,
  };
}

/** The backend's token of a live session (for the adapters' calls), or null. */
export async function upstreamTokenOf(db: D1Database, token: string, now = Date.now()): Promise<string | null> {
  const row = await liveRow(db, token, now);
  return row ? unseal(token, row.upstreamToken) : null;
}

async function endSession(db: D1Database, token: string, now = Date.now()) {
  await db
    .prepare("UPDATE upstream_sessions SET revoked_at = ?1 WHERE id = ?2 AND revoked_at IS NULL")
    .bind(now, await sha256Hex(token))
    .run();
}

/**
 * One §7 call as the signed-in user (the adapters' way in): the backend's token from the session,
 * and a 999 ends our session as well, so the next page sends the user to /login.
 */
export async function callAsUser<T>(ctx: AppContext, call: Omit<UpstreamCall, "token" | "lang" | "clientIp">): Promise<UpstreamAnswer<T>> {
  const token = await ctx.token();
  const upstreamToken = token ? await upstreamTokenOf(ctx.d1, token) : null;
  if (!token || !upstreamToken) return { ok: false, kind: "session_ended" };
  const answer = await callUpstream<T>(upstreamTargetOf(ctx), { ...call, token: upstreamToken, lang: ctx.lang, clientIp: ctx.client.ip });
  if (!answer.ok && answer.kind === "session_ended") await endSession(ctx.d1, token);
  return answer;
}

/** Sign-out: the backend's session first (best effort: never resent), then ours, whatever the backend said. */
export async function upstreamLogout(ctx: AppContext, token: string | null) {
  if (!token) return;
  const upstreamToken = await upstreamTokenOf(ctx.d1, token);
  if (upstreamToken) {
    await callUpstream(upstreamTargetOf(ctx), {
      method: "POST",
      path: "/api/user/logout",
      token: upstreamToken,
      lang: ctx.lang,
      clientIp: ctx.client.ip,
    });
  }
  await endSession(ctx.d1, token);
}
