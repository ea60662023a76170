/**
 * Password hashing: PBKDF2-SHA256 (WebCrypto, runs on Workers and in Node) over an HMAC of the
 * password with a secret pepper. Workers caps PBKDF2 at 100,000 iterations, so the pepper (kept
 * outside the database) makes up for the lower count. Parameters are stored with each hash:
 *   pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>
 * so the cost can be raised later (needsRehash) without breaking old hashes.
 * See docs/decisions/005-password-hashing.md.
 */
import { b64url, fromB64url, hmacSha256, timingSafeEqual } from "~/lib/encoding";

async function derive(
  password: string,
  pepper: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey("raw", await hmacSha256(pepper, password.normalize("NFKC")), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, pepper: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, pepper, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${b64url(salt)}$${b64url(hash)}`;
}

/** A fixed dummy hash verified when an account does not exist, so timing does not reveal it. */
const DUMMY_SALT = new Uint8Array(16);

export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  pepper: string,
  fallbackIterations: number,
): Promise<boolean> {
  const parts = stored?.split("$") ?? [];
  if (parts.length !== 4 || parts[0] !== "pbkdf2-sha256") {
    await derive(password, pepper, DUMMY_SALT, fallbackIterations);
    return false;
  }
  const iterations = Number(parts[1]);
  const expected = fromB64url(parts[3]!);
  const actual = await derive(password, pepper, fromB64url(parts[2]!), iterations);
  return timingSafeEqual(actual, expected);
}

export function needsRehash(stored: string, iterations: number): boolean {
  const parts = stored.split("$");
  return parts[0] !== "pbkdf2-sha256" || Number(parts[1]) < iterations;
}
