/**
 * One-time verification codes (6 digits, 10-minute life, single use, 5 tries) and picture
 * captchas (single use, 5-minute life). Only hashes are stored. Targets are canonical account
 * identifiers (app/domain/identity.ts), so spellings of one address share one code and one limit.
 *
 * - One code per target and purpose at a time: issuing a code voids the older ones, and using
 *   one voids every code of that purpose for that target.
 * - Only codes issued count toward a target's limit (ADR 007): a request takes its client's slot
 *   first (refused or not, only the sender is limited by its requests), then the target's slot,
 *   which is taken only when the 60 s resend interval has passed AND the hourly limit has room,
 *   in one statement (rate-limit reserveSpaced). A refused request takes nothing from the target,
 *   so nobody can keep an owner's codes closed by asking for them; two parallel sends give one code.
 * - The operator's step-up has its own, larger allowance (Limits.stepUpPerTarget).
 * - Each try is reserved before it is checked (`attempts < 5` in the same statement), so a burst
 *   of wrong codes spends at most 5 tries.
 */
import { CAPTCHA_ALPHABET, renderCaptchaPng } from "~/lib/captcha-image";
import { randomToken, sha256Hex, toBase64 } from "~/lib/encoding";
import { Limits, hit, releaseSpaced, reserveSpaced } from "~/services/rate-limit.server";

export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CAPTCHA_TTL_MS = 5 * 60_000;

export type CodePurpose = "register" | "reset" | "amend" | "stepup";

export type IssueResult = { ok: true; code: string } | { ok: false; reason: "wait"; seconds: number } | { ok: false; reason: "limited" };

function randomDigits(n: number) {
  // 10^6 is not a power of two: draw 32-bit values and drop the few above the last full range.
  const out: string[] = [];
  while (out.length < n) {
    const [x] = crypto.getRandomValues(new Uint32Array(1));
    if (x! < 4_294_967_290) out.push(String(x! % 10));
  }
  return out.join("");
}

function codeHash(target: string, purpose: CodePurpose, code: string) {
  return sha256Hex(`${purpose}:${target}:${code}`);
}

/** The limits of a purpose's codes: per target (codes issued) and per client (requests). */
function limitsOf(purpose: CodePurpose) {
  return purpose === "stepup"
    ? { target: Limits.stepUpPerTarget, client: Limits.stepUpPerOperator }
    : { target: Limits.codePerTarget, client: Limits.codePerClient };
}

/** The rate_limits row of a target's issued codes and its resend interval. */
const targetKey = (purpose: CodePurpose, target: string) => `code:a:${purpose}:${target}`;

/**
 * Reserves the right to send a code to a target and, when `store` is set, creates the code.
 * The client's slot is taken first and counts whatever the answer; the target's slot only when a
 * code (or, with `store` false, the notice sent instead, e.g. a registration code for an address
 * that already has an account) will be sent. With `store` false the same limits apply and no
 * code exists. `client` is the requester's key: the client address, or the operator for a step-up.
 */
export async function issueCode(
  db: D1Database,
  client: string,
  target: string,
  purpose: CodePurpose,
  options: { store?: boolean; now?: number } = {},
): Promise<IssueResult> {
  const now = options.now ?? Date.now();
  const limits = limitsOf(purpose);
  if (!(await hit(db, `code:c:${client}`, limits.client, now))) return { ok: false, reason: "limited" };
  const slot = await reserveSpaced(db, targetKey(purpose, target), limits.target, CODE_RESEND_SECONDS * 1000, now);
  if (!slot.ok)
    return slot.reason === "wait"
      ? { ok: false, reason: "wait", seconds: Math.min(CODE_RESEND_SECONDS, slot.seconds) }
      : { ok: false, reason: "limited" };
  const code = randomDigits(6);
  if (options.store === false) return { ok: true, code };
  await db.batch([
    db
      .prepare("UPDATE verification_codes SET consumed_at = ?3 WHERE target = ?1 AND purpose = ?2 AND consumed_at IS NULL")
      .bind(target, purpose, now),
    db
      .prepare("INSERT INTO verification_codes (target, purpose, code_hash, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(target, purpose, await codeHash(target, purpose, code), now + CODE_TTL_MS, now),
  ]);
  return { ok: true, code };
}

/**
 * A code that could not be delivered was never issued: it is voided, and the target's slot and
 * interval are given back (the client's slot stays spent).
 */
export async function withdrawCode(db: D1Database, target: string, purpose: CodePurpose, now = Date.now()) {
  await db
    .prepare("UPDATE verification_codes SET consumed_at = ?3 WHERE target = ?1 AND purpose = ?2 AND consumed_at IS NULL")
    .bind(target, purpose, now)
    .run();
  await releaseSpaced(db, targetKey(purpose, target), now);
}

/** Seconds until another code may be sent (0 when allowed now); for showing the countdown. */
export async function resendWait(db: D1Database, target: string, purpose: CodePurpose, now = Date.now()) {
  const row = await db
    .prepare("SELECT blocked_until AS until FROM rate_limits WHERE key = ?1")
    .bind(targetKey(purpose, target))
    .first<{ until: number }>();
  return row ? Math.max(0, Math.ceil((row.until - now) / 1000)) : 0;
}

/**
 * Uses the live code of a target if `code` matches it. The try is reserved first (attempts
 * counted in the same statement that checks the cap); a match then consumes the code with a
 * conditional update (single use under concurrency) and voids every other code of the purpose.
 */
export async function consumeCode(db: D1Database, target: string, purpose: CodePurpose, code: string, now = Date.now()): Promise<boolean> {
  const tried = await db
    .prepare(
      `UPDATE verification_codes SET attempts = attempts + 1
        WHERE id = (SELECT id FROM verification_codes WHERE target = ?1 AND purpose = ?2 ORDER BY id DESC LIMIT 1)
          AND consumed_at IS NULL AND expires_at > ?3 AND attempts < ?4
        RETURNING id, code_hash AS codeHash`,
    )
    .bind(target, purpose, now, CODE_MAX_ATTEMPTS)
    .first<{ id: number; codeHash: string }>();
  if (!tried || tried.codeHash !== (await codeHash(target, purpose, code))) return false;
  const [used] = await db.batch<{ id: number }>([
    db.prepare("UPDATE verification_codes SET consumed_at = ?2 WHERE id = ?1 AND consumed_at IS NULL RETURNING id").bind(tried.id, now),
    db
      .prepare("UPDATE verification_codes SET consumed_at = ?3 WHERE target = ?1 AND purpose = ?2 AND consumed_at IS NULL")
      .bind(target, purpose, now),
  ]);
  return (used?.results.length ?? 0) === 1;
}

export interface Captcha {
  id: string;
  /** data: URL of the PNG (the spec's b64s). */
  b64s: string;
}

export async function createCaptcha(db: D1Database, now = Date.now()): Promise<Captcha> {
  const random = crypto.getRandomValues(new Uint8Array(128));
  const text = [...random.slice(0, 5)].map((b) => CAPTCHA_ALPHABET[b % CAPTCHA_ALPHABET.length]).join("");
  const id = randomToken(16);
  await db
    .prepare("INSERT INTO captchas (id, answer_hash, expires_at, created_at) VALUES (?1, ?2, ?3, ?4)")
    .bind(id, await sha256Hex(`captcha:${id}:${text}`), now + CAPTCHA_TTL_MS, now)
    .run();
  return { id, b64s: `data:image/png;base64,${toBase64(renderCaptchaPng(text, random.slice(5)))}` };
}

/** Single use: any attempt, right or wrong, uses the captcha up. Case-insensitive. */
export async function consumeCaptcha(db: D1Database, id: string, answer: string, now = Date.now()) {
  if (!id || !answer || id.length > 64 || answer.length > 12) return false;
  const row = await db
    .prepare(
      "UPDATE captchas SET consumed_at = ?1 WHERE id = ?2 AND consumed_at IS NULL AND expires_at > ?1 RETURNING answer_hash AS answerHash",
    )
    .bind(now, id)
    .first<{ answerHash: string }>();
  if (!row) return false;
  return row.answerHash === (await sha256Hex(`captcha:${id}:${answer.trim().toUpperCase()}`));
}

/** Expired codes and captchas are dropped by the scheduled job. */
export async function pruneCodes(db: D1Database, now = Date.now()) {
  const [codes, captchas] = await db.batch([
    db.prepare("DELETE FROM verification_codes WHERE expires_at < ?1").bind(now - CODE_TTL_MS),
    db.prepare("DELETE FROM captchas WHERE expires_at < ?1").bind(now - CAPTCHA_TTL_MS),
  ]);
  return (codes?.meta.changes ?? 0) + (captchas?.meta.changes ?? 0);
}
