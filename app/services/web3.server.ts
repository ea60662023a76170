/**
 * Web3 login use cases (spec §2 /user/web3-login, §5 messages, §7 get_nonce and web3_login),
 * shared by the JSON API and the page's action. See docs/decisions/016-web3-login.md.
 *
 *  - issueNonce: a server-made random nonce (128 bits, hex), bound to the lowercased address,
 *    5 minutes, single use; limited per client (the slot is reserved before any work; failed
 *    logins are limited the same way).
 *  - web3Login: checks the EIP-4361 message against this request (app/domain/web3.ts), verifies
 *    the EOA signature (viem, no RPC), consumes the nonce with one conditional UPDATE (a replay,
 *    even a parallel one, finds it used), then signs in the wallet's user or creates one the
 *    way registration does.
 * Every refusal is a §5 message key; nothing here answers with internal text.
 */
import { verifyMessage } from "viem";
import type { AppContext } from "~/context.server";
import { NONCE_TTL_MS, checkLoginMessage } from "~/domain/web3";
import type { NonceRequestInput, Web3LoginInput } from "~/forms/web3";
import { createWalletUser } from "~/services/auth/accounts.server";
import { refuse as fail, type Outcome } from "~/services/outcome";
import { Limits, hit, release } from "~/services/rate-limit.server";
import { createSession } from "~/services/session.server";

/** Where the login happens: the request's host (with port) and origin. */
export interface Site {
  domain: string;
  origin: string;
}

export function siteOf(request: Request): Site {
  const url = new URL(request.url);
  return { domain: url.host, origin: url.origin };
}

export interface IssuedNonce {
  nonce: string;
  address: string;
  issuedAt: number;
  expiresAt: number;
}

export async function issueNonce(ctx: AppContext, input: NonceRequestInput, now = Date.now()): Promise<Outcome<IssuedNonce>> {
  if (!(await hit(ctx.d1, `web3:nonce:${ctx.client.key}`, Limits.web3NoncePerClient, now))) return fail("errors.too_many_requests", 429);
  const nonce = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const expiresAt = now + NONCE_TTL_MS;
  await ctx.d1
    .prepare("INSERT INTO web3_nonces (nonce, address, expires_at, created_at) VALUES (?1, ?2, ?3, ?4)")
    .bind(nonce, input.w_address, expiresAt, now)
    .run();
  return { ok: true, value: { nonce, address: input.w_address, issuedAt: now, expiresAt } };
}

async function signatureMatches(input: Web3LoginInput): Promise<boolean> {
  try {
    return await verifyMessage({
      address: input.w_address as `0x${string}`,
      message: input.message,
      signature: input.signature as `0x${string}`,
    });
  } catch {
    // A signature that is not a point on the curve, a bad recovery byte…
    return false;
  }
}

/** Marks the nonce used if it is this address's, unused and unexpired: true for exactly one caller. */
async function consumeNonce(ctx: AppContext, nonce: string, address: string, now: number): Promise<boolean> {
  const row = await ctx.d1
    .prepare(
      "UPDATE web3_nonces SET used_at = ?3 WHERE nonce = ?1 AND address = ?2 AND used_at IS NULL AND expires_at > ?3 RETURNING nonce",
    )
    .bind(nonce, address, now)
    .first<{ nonce: string }>();
  return row !== null;
}

async function walletOwner(ctx: AppContext, address: string) {
  return ctx.d1
    .prepare("SELECT u.id, u.status FROM user_wallets w JOIN users u ON u.id = w.user_id WHERE w.address = ?1")
    .bind(address)
    .first<{ id: number; status: number }>();
}

export async function web3Login(
  ctx: AppContext,
  site: Site,
  input: Web3LoginInput,
  now = Date.now(),
): Promise<Outcome<{ token: string; userId: number; created: boolean }>> {
  const slot = `web3:login:${ctx.client.key}`;
  if (!(await hit(ctx.d1, slot, Limits.web3LoginPerClient, now))) return fail("errors.too_many_requests", 429);
  const checked = checkLoginMessage(input.message, { ...site, address: input.w_address, nonce: input.nonce, now: new Date(now) });
  if (!checked.ok) return fail(checked.problem === "nonce" ? "web3.nonce_not_found" : "web3.login_failed");
  if (!(await signatureMatches(input))) return fail("web3.login_failed");
  if (!(await consumeNonce(ctx, input.nonce, input.w_address, now))) return fail("web3.nonce_not_found");
  let owner = await walletOwner(ctx, input.w_address);
  let created = false;
  if (!owner) {
    const made = await createWalletUser(ctx, input.w_address);
    // Another first login of this wallet won the race: sign in the user it made.
    owner = made.ok ? { id: made.id, status: 1 } : await walletOwner(ctx, input.w_address);
    created = made.ok;
  }
  if (!owner || owner.status !== 1) return fail("web3.login_failed");
  // A successful login does not count against its client (as for passwords): only failures use the slots up.
  const [token] = await Promise.all([createSession(ctx.d1, owner.id, ctx.client.userAgent), release(ctx.d1, slot)]);
  return { ok: true, value: { token, userId: owner.id, created } };
}

/** Nonces a day past their expiry are useless: dropped by the scheduled job. */
export async function pruneWeb3Nonces(db: D1Database, now = Date.now()) {
  const result = await db
    .prepare("DELETE FROM web3_nonces WHERE expires_at < ?1")
    .bind(now - 24 * 60 * 60_000)
    .run();
  return result.meta.changes ?? 0;
}
