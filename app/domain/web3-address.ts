/**
 * Wallet addresses (web3 login), without the EIP-4361 code of app/domain/web3.ts, so that pages
 * naming a wallet user (the header) do not load it. Pure: no I/O.
 */
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** The address in the one form stored and compared (lowercase), or null when it is not 0x + 40 hex digits. */
export function normalizeAddress(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return ADDRESS_RE.test(trimmed) ? trimmed.toLowerCase() : null;
}

/** "0x1234…abcd": how a wallet user is named where others show an e-mail address. */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return "";
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
