/**
 * Web3 login rules (spec §2 /user/web3-login, §5, §7; EIP-4361 "Sign-In with Ethereum"), shared
 * by the browser (which builds the message the wallet signs) and the server (which checks it).
 * Pure: no I/O. The message is made and parsed with viem's EIP-4361 helpers; the server accepts
 * only messages in their canonical form (what buildLoginMessage writes), so nothing can hide
 * between the fields a wallet shows and the fields checked here.
 */
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";

export { normalizeAddress, shortAddress } from "./web3-address";

/** A nonce lives 5 minutes and is used once. */
export const NONCE_TTL_MS = 5 * 60_000;
/** The signed message is at most 2 KB (UTF-8). */
export const MAX_MESSAGE_BYTES = 2048;
/** How far a message's times may stray from the server's clock. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** Chains whose id a login message may name (Ethereum, Optimism, BNB Chain, Polygon, Base, Arbitrum One). */
export const ALLOWED_CHAIN_IDS: readonly number[] = [1, 10, 56, 137, 8453, 42161];
export const DEFAULT_CHAIN_ID = 1;
/** The statement the wallet shows above the fields (one line, no translation: it is signed). */
export const LOGIN_STATEMENT = "Sign in to Bourse with this wallet.";

/** Server nonces are 32 hex characters; EIP-4361 asks for at least 8 alphanumerics. */
export const NONCE_RE = /^[A-Za-z0-9]{8,64}$/;
/** An EOA signature: r, s and v, 65 bytes in hex. */
export const SIGNATURE_RE = /^0x[0-9a-fA-F]{130}$/;

/** The chain to name in a message: the wallet's own when it is allowed, else Ethereum. */
export function chainIdFor(walletChainId: unknown): number {
  const id =
    typeof walletChainId === "string" ? Number.parseInt(walletChainId, walletChainId.startsWith("0x") ? 16 : 10) : Number(walletChainId);
  return ALLOWED_CHAIN_IDS.includes(id) ? id : DEFAULT_CHAIN_ID;
}

export interface LoginMessageInput {
  /** The site's host (with its port), e.g. "bourse.example" or "localhost:8813". */
  domain: string;
  /** The site's origin, e.g. "https://bourse.example". */
  origin: string;
  address: string;
  nonce: string;
  chainId: number;
  /** Both times come from the server's nonce (get_nonce), so a wrong device clock does not matter. */
  issuedAt: Date;
  expirationTime: Date;
}

/** The EIP-4361 message for a login (throws on a field EIP-4361 refuses, e.g. a bad address). */
export function buildLoginMessage(input: LoginMessageInput): string {
  return createSiweMessage({
    domain: input.domain,
    address: input.address as `0x${string}`,
    statement: LOGIN_STATEMENT,
    uri: input.origin,
    version: "1",
    chainId: input.chainId,
    nonce: input.nonce,
    issuedAt: input.issuedAt,
    expirationTime: input.expirationTime,
  });
}

/** personal_sign takes the message as hex-encoded UTF-8. */
export function utf8Hex(text: string): `0x${string}` {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export type MessageProblem = "too_large" | "malformed" | "domain" | "uri" | "address" | "nonce" | "chain" | "time";

export interface ExpectedLogin {
  domain: string;
  origin: string;
  /** Lowercased. */
  address: string;
  nonce: string;
  now: Date;
}

function validDate(d: Date | undefined): d is Date {
  return d instanceof Date && !Number.isNaN(d.getTime());
}

/**
 * Checks a submitted login message against what this request expects: size, canonical form,
 * domain (the request's host), uri (the request's origin), address, nonce, an allowed chain id,
 * and sane times (issued within the clock skew of now and not before the nonce could exist;
 * expiry in the future and after issue; a not-before already reached).
 */
export function checkLoginMessage(
  message: string,
  expected: ExpectedLogin,
): { ok: true; chainId: number } | { ok: false; problem: MessageProblem } {
  if (new TextEncoder().encode(message).byteLength > MAX_MESSAGE_BYTES) return { ok: false, problem: "too_large" };
  const parsed = parseSiweMessage(message);
  if (
    !parsed.domain ||
    !parsed.address ||
    !parsed.uri ||
    !parsed.nonce ||
    parsed.chainId === undefined ||
    parsed.version !== "1" ||
    !parsed.issuedAt
  ) {
    return { ok: false, problem: "malformed" };
  }
  let canonical: string;
  try {
    canonical = createSiweMessage({
      ...parsed,
      address: parsed.address,
      domain: parsed.domain,
      uri: parsed.uri,
      nonce: parsed.nonce,
      chainId: parsed.chainId,
      version: "1",
    });
  } catch {
    return { ok: false, problem: "malformed" };
  }
  if (canonical !== message) return { ok: false, problem: "malformed" };
  if (parsed.domain !== expected.domain) return { ok: false, problem: "domain" };
  let uriOrigin: string;
  try {
    uriOrigin = new URL(parsed.uri).origin;
  } catch {
    return { ok: false, problem: "uri" };
  }
  if (uriOrigin !== expected.origin) return { ok: false, problem: "uri" };
  if (parsed.scheme !== undefined && `${parsed.scheme}:` !== new URL(expected.origin).protocol) return { ok: false, problem: "uri" };
  if (parsed.address.toLowerCase() !== expected.address) return { ok: false, problem: "address" };
  if (parsed.nonce !== expected.nonce) return { ok: false, problem: "nonce" };
  if (!ALLOWED_CHAIN_IDS.includes(parsed.chainId)) return { ok: false, problem: "chain" };
  const now = expected.now.getTime();
  const issued = parsed.issuedAt;
  if (!validDate(issued) || issued.getTime() > now + CLOCK_SKEW_MS || issued.getTime() < now - NONCE_TTL_MS - CLOCK_SKEW_MS)
    return { ok: false, problem: "time" };
  if (
    parsed.expirationTime !== undefined &&
    (!validDate(parsed.expirationTime) || parsed.expirationTime.getTime() <= now || parsed.expirationTime.getTime() <= issued.getTime())
  ) {
    return { ok: false, problem: "time" };
  }
  if (parsed.notBefore !== undefined && (!validDate(parsed.notBefore) || parsed.notBefore.getTime() > now + CLOCK_SKEW_MS))
    return { ok: false, problem: "time" };
  // viem's own validation as well (nonce alphabet, version, lifetime, address, domain, nonce).
  if (
    !validateSiweMessage({
      message: parsed,
      domain: expected.domain,
      nonce: expected.nonce,
      address: expected.address as `0x${string}`,
      time: expected.now,
    })
  ) {
    return { ok: false, problem: "malformed" };
  }
  return { ok: true, chainId: parsed.chainId };
}

/* ------------------------------------------------------------------------------------------ *
 * Browser wallets (spec §5): the choices, the flag each injected provider sets, where to get it.
 * ------------------------------------------------------------------------------------------ */

export type WalletId = "metamask" | "coinbase" | "imtoken" | "trust" | "onchain";

export interface WalletChoice {
  id: WalletId;
  /** The product's own name (not translated). */
  name: string;
  /** Flags the wallet's EIP-1193 provider sets to true. */
  flags: readonly string[];
  /** The official download page. */
  site: string;
}

export const WALLETS: readonly WalletChoice[] = [
  { id: "metamask", name: "MetaMask", flags: ["isMetaMask"], site: "https://metamask.io/download/" },
  { id: "coinbase", name: "Coinbase Wallet", flags: ["isCoinbaseWallet"], site: "https://www.coinbase.com/wallet/downloads" },
  { id: "imtoken", name: "imToken", flags: ["isImToken"], site: "https://token.im/download" },
  { id: "trust", name: "Trust Wallet", flags: ["isTrust", "isTrustWallet"], site: "https://trustwallet.com/download" },
  { id: "onchain", name: "OKX Wallet", flags: ["isOkxWallet", "isOKExWallet"], site: "https://www.okx.com/web3" },
];

export function walletById(id: unknown): WalletChoice | null {
  return WALLETS.find((w) => w.id === id) ?? null;
}

type Flagged = Record<string, unknown>;

function hasFlag(provider: Flagged, flags: readonly string[]) {
  return flags.some((f) => provider[f] === true);
}

/**
 * The injected provider of the chosen wallet among the candidates (window.ethereum, its
 * `providers` list when several wallets share it, wallet-specific globals). Many wallets also set
 * isMetaMask for compatibility: MetaMask is the provider with that flag and no other wallet's.
 */
export function findWalletProvider<P extends object>(candidates: readonly (P | null | undefined)[], wallet: WalletChoice): P | null {
  const others = WALLETS.filter((w) => w.id !== wallet.id).flatMap((w) => w.flags);
  for (const candidate of candidates) {
    if (!candidate || typeof candidate !== "object") continue;
    const p = candidate as unknown as Flagged;
    if (!hasFlag(p, wallet.flags)) continue;
    if (wallet.id === "metamask" && hasFlag(p, others)) continue;
    return candidate;
  }
  return null;
}

/** The i18n key of the message shown when the chosen wallet is not there. */
export function installMessageKey(wallet: WalletChoice): string {
  return `web3.install_${wallet.id}`;
}
