/**
 * One-time verification codes (6 digits, 10-minute life, single use, 5 tries) and picture
 * captchas (single use, 5-minute life). Only hashes are stored. Resending to the same target
 * is refused for 60 seconds on the server as well as on the button.
 */
import { hit, clientKey, Limits } from "~/services/rate-limit.server";
import { sha256Hex, randomToken } from "~/services/password.server";
import { CAPTCHA_ALPHABET, renderCaptchaPng, toBase64 } from "~/lib/captcha-image";

export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CAPTCHA_TTL_MS = 5 * 60_000;

export type CodePurpose = "register" | "reset" | "amend";

export type IssueResult =
  | { ok: true; code: string }
  | { ok: false; reason: "wait"; seconds: number }
  | { ok: false; reason: "limited" };

function randomDigits(n: number) {
  const bytes = crypto.getRandomValues(new Uint32Array(n));
  return [...bytes].map((b) => String(b % 10)).join("");
}

function codeHash(target: string, purpose: CodePurpose, code: string) {
  return sha256Hex(`${purpose}:${target}:${code}`);
}

/** Seconds until another code may be sent to this target (0 when allowed now). */
export async function resendWait(db: D1Database, target: string, purpose: CodePurpose, now = Date.now()) {
  const row = await db
    .prepare("SELECT created_at AS createdAt FROM verification_codes WHERE target = ?1 AND purpose = ?2 ORDER BY id DESC LIMIT 1")
    .bind(target, purpose)
    .first<{ createdAt: number }>();
  if (!row) return 0;
  const left = Math.ceil((row.createdAt + CODE_RESEND_SECONDS * 1000 - now) / 1000);
  return Math.max(0, Math.min(CODE_RESEND_SECONDS, left));
}

/**
 * Creates a code for a target, enforcing the 60 s resend interval and the per-target and
 * per-client hourly limits. The caller sends it (or, for an unknown account on reset, does not).
 */
export async function issueCode(
  db: D1Database,
  request: Request,
  target: string,
  purpose: CodePurpose,
  now = Date.now(),
): Promise<IssueResult> {
  const wait = await resendWait(db, target, purpose, now);
  if (wait > 0) return { ok: false, reason: "wait", seconds: wait };
  const [perTarget, perClient] = await Promise.all([
    hit(db, `code:t:${purpose}:${target}`, Limits.codePerTarget, now),
    hit(db, `code:c:${clientKey(request)}`, Limits.codePerClient, now),
  ]);
  if (!perTarget || !perClient) return { ok: false, reason: "limited" };
  const code = randomDigits(6);
  await db
    .prepare("INSERT INTO verification_codes (target, purpose, code_hash, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(target, purpose, await codeHash(target, purpose, code), now + CODE_TTL_MS, now)
    .run();
  return { ok: true, code };
}

/**
 * Consumes the latest live code for the target if `code` matches it. A conditional UPDATE makes
 * it single use even under concurrent submissions; a wrong guess counts an attempt.
 */
export async function consumeCode(db: D1Database, target: string, purpose: CodePurpose, code: string, now = Date.now()) {
  const hash = await codeHash(target, purpose, code);
  const latest = await db
    .prepare(
      "SELECT id FROM verification_codes WHERE target = ?1 AND purpose = ?2 AND consumed_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(target, purpose)
    .first<{ id: number }>();
  if (!latest) return false;
  const used = await db
    .prepare(
      `UPDATE verification_codes SET consumed_at = ?1
        WHERE id = ?2 AND code_hash = ?3 AND consumed_at IS NULL AND expires_at > ?1 AND attempts < ?4
        RETURNING id`,
    )
    .bind(now, latest.id, hash, CODE_MAX_ATTEMPTS)
    .first<{ id: number }>();
  if (used) return true;
  await db.prepare("UPDATE verification_codes SET attempts = attempts + 1 WHERE id = ?1").bind(latest.id).run();
  return false;
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
  // Drop expired captchas now and then so the table stays small.
  if (random[127]! < 8) await db.prepare("DELETE FROM captchas WHERE expires_at < ?1").bind(now - CAPTCHA_TTL_MS).run();
  return { id, b64s: `data:image/png;base64,${toBase64(renderCaptchaPng(text, random.slice(5)))}` };
}

/** Single use: any attempt, right or wrong, uses the captcha up. Case-insensitive. */
export async function consumeCaptcha(db: D1Database, id: string, answer: string, now = Date.now()) {
  if (!id || !answer || id.length > 64 || answer.length > 12) return false;
  const row = await db
    .prepare("UPDATE captchas SET consumed_at = ?1 WHERE id = ?2 AND consumed_at IS NULL AND expires_at > ?1 RETURNING answer_hash AS answerHash")
    .bind(now, id)
    .first<{ answerHash: string }>();
  if (!row) return false;
  return row.answerHash === (await sha256Hex(`captcha:${id}:${answer.trim().toUpperCase()}`));
}
