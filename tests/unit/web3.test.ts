import { describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  CLOCK_SKEW_MS,
  MAX_MESSAGE_BYTES,
  NONCE_TTL_MS,
  WALLETS,
  buildLoginMessage,
  chainIdFor,
  checkLoginMessage,
  findWalletProvider,
  installMessageKey,
  normalizeAddress,
  shortAddress,
  utf8Hex,
  walletById,
  type LoginMessageInput,
} from "~/domain/web3";
import { parseFields } from "~/forms/parse";
import { NonceRequestSchema, Web3LoginSchema } from "~/forms/web3";

const account = privateKeyToAccount(generatePrivateKey());
const address = account.address.toLowerCase();
const now = new Date("2026-11-23T12:00:00.000Z");
const site = { domain: "bourse.example", origin: "https://bourse.example" };
const nonce = "0123456789abcdef0123456789abcdef";

function message(over: Partial<LoginMessageInput> = {}) {
  return buildLoginMessage({
    ...site,
    address: account.address,
    nonce,
    chainId: 1,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + NONCE_TTL_MS),
    ...over,
  });
}

const expected = { ...site, address, nonce, now };

describe("wallet addresses", () => {
  it("keeps 0x + 40 hex digits in lowercase and refuses anything else", () => {
    expect(normalizeAddress(` ${account.address} `)).toBe(address);
    for (const bad of ["", "0x", "0x123", `${address}0`, address.slice(2), `0X${address.slice(2)}`, `0x${"g".repeat(40)}`, null, 42])
      expect(normalizeAddress(bad)).toBeNull();
  });

  it("shortens an address for the header", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(shortAddress(null)).toBe("");
  });

  it("the forms' address field gives the spec's message and the stored (lowercase) form", () => {
    expect(parseFields(NonceRequestSchema, { w_address: account.address })).toEqual({ ok: true, value: { w_address: address } });
    expect(parseFields(NonceRequestSchema, { w_address: "0x12" })).toEqual({ ok: false, errors: { w_address: "web3.invalid_address" } });
    expect(parseFields(NonceRequestSchema, {})).toEqual({ ok: false, errors: { w_address: "web3.invalid_address" } });
  });

  it("the login form refuses a malformed signature or nonce with the spec's messages and undoes CRLF line ends", () => {
    const sig = `0x${"ab".repeat(65)}`;
    const base = { w_address: address, signature: sig, nonce, message: message() };
    const okParsed = parseFields(Web3LoginSchema, { ...base, message: message().replace(/\n/g, "\r\n") });
    expect(okParsed.ok && okParsed.value.message).toBe(message());
    expect(parseFields(Web3LoginSchema, { ...base, signature: "0xdead" })).toEqual({
      ok: false,
      errors: { signature: "web3.login_failed" },
    });
    expect(parseFields(Web3LoginSchema, { ...base, nonce: "short" })).toEqual({ ok: false, errors: { nonce: "web3.nonce_not_found" } });
    expect(parseFields(Web3LoginSchema, { ...base, message: "" })).toEqual({ ok: false, errors: { message: "web3.login_failed" } });
    expect(parseFields(Web3LoginSchema, {})).toEqual({
      ok: false,
      errors: {
        w_address: "web3.invalid_address",
        signature: "web3.login_failed",
        nonce: "web3.nonce_not_found",
        message: "web3.login_failed",
      },
    });
  });
});

describe("the EIP-4361 login message", () => {
  it("is written with the checksummed address, this site, the nonce and the server's times", () => {
    const text = message();
    expect(text).toBe(
      [
        "bourse.example wants you to sign in with your Ethereum account:",
        account.address,
        "",
        "Sign in to Bourse with this wallet.",
        "",
        "URI: https://bourse.example",
        "Version: 1",
        "Chain ID: 1",
        `Nonce: ${nonce}`,
        "Issued At: 2026-11-23T12:00:00.000Z",
        "Expiration Time: 2026-11-23T12:05:00.000Z",
      ].join("\n"),
    );
    expect(message({ address })).toBe(text);
    expect(checkLoginMessage(text, expected)).toEqual({ ok: true, chainId: 1 });
  });

  it("is accepted for a host with a port and an http origin (local runs)", () => {
    const local = { domain: "localhost:8813", origin: "http://localhost:8813" };
    expect(checkLoginMessage(message(local), { ...expected, ...local })).toEqual({ ok: true, chainId: 1 });
  });

  it("is refused for another domain, another origin or scheme, another address, another nonce", () => {
    expect(checkLoginMessage(message({ domain: "evil.example" }), expected)).toEqual({ ok: false, problem: "domain" });
    expect(checkLoginMessage(message({ origin: "https://evil.example" }), expected)).toEqual({ ok: false, problem: "uri" });
    expect(checkLoginMessage(message({ origin: "http://bourse.example" }), expected)).toEqual({ ok: false, problem: "uri" });
    const other = privateKeyToAccount(generatePrivateKey());
    expect(checkLoginMessage(message({ address: other.address }), expected)).toEqual({ ok: false, problem: "address" });
    expect(checkLoginMessage(message({ nonce: "ffffffffffffffffffffffffffffffff" }), expected)).toEqual({ ok: false, problem: "nonce" });
  });

  it("is refused for a chain outside the allowed list", () => {
    expect(checkLoginMessage(message({ chainId: 8453 }), expected)).toEqual({ ok: true, chainId: 8453 });
    expect(checkLoginMessage(message({ chainId: 5 }), expected)).toEqual({ ok: false, problem: "chain" });
    expect(checkLoginMessage(message({ chainId: 11155111 }), expected)).toEqual({ ok: false, problem: "chain" });
  });

  it("is refused when its times are not sane", () => {
    const at = (ms: number) => new Date(now.getTime() + ms);
    // issued in the future beyond the clock skew, or before any live nonce could exist
    expect(
      checkLoginMessage(message({ issuedAt: at(CLOCK_SKEW_MS + 1000), expirationTime: at(CLOCK_SKEW_MS + NONCE_TTL_MS) }), expected),
    ).toEqual({ ok: false, problem: "time" });
    expect(
      checkLoginMessage(message({ issuedAt: at(-NONCE_TTL_MS - CLOCK_SKEW_MS - 1000), expirationTime: at(60_000) }), expected),
    ).toEqual({ ok: false, problem: "time" });
    // expired, or expiring before it was issued
    expect(checkLoginMessage(message({ issuedAt: at(-NONCE_TTL_MS), expirationTime: at(-1) }), expected)).toEqual({
      ok: false,
      problem: "time",
    });
    expect(checkLoginMessage(message({ issuedAt: at(60_000), expirationTime: at(30_000) }), expected)).toEqual({
      ok: false,
      problem: "time",
    });
    // within the skew is fine
    expect(checkLoginMessage(message({ issuedAt: at(CLOCK_SKEW_MS - 1000), expirationTime: at(NONCE_TTL_MS) }), expected).ok).toBe(true);
  });

  it("is refused above 2 KB, and when anything is added to or changed in its canonical form", () => {
    const text = message();
    const padded = text.replace(
      "Sign in to Bourse with this wallet.",
      `Sign in to Bourse with this wallet.${" x".repeat(MAX_MESSAGE_BYTES)}`,
    );
    expect(checkLoginMessage(padded, expected)).toEqual({ ok: false, problem: "too_large" });
    expect(
      checkLoginMessage(`${text}\nResources:\n- https://evil.example`.replace("\nResources:", "\nJunk: 1\nResources:"), expected),
    ).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage(`${text}\n`, expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage(`\n${text}`, expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage(`x${text}`, expected)).toEqual({ ok: false, problem: "domain" });
    expect(checkLoginMessage(text.replace(account.address, address), expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage(text.replace("Version: 1", "Version: 2"), expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage(text.replace(".000Z", "Z"), expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage("hello", expected)).toEqual({ ok: false, problem: "malformed" });
    expect(checkLoginMessage("", expected)).toEqual({ ok: false, problem: "malformed" });
  });

  it("is what a viem account signs over personal_sign's hex (the browser's path)", async () => {
    const text = message();
    const viaHex = await account.signMessage({ message: { raw: utf8Hex(text) } });
    expect(viaHex).toBe(await account.signMessage({ message: text }));
    expect(utf8Hex("é")).toBe("0xc3a9");
  });
});

describe("wallet choices", () => {
  it("names the five wallets of the spec with official sites and install messages", () => {
    expect(WALLETS.map((w) => w.id)).toEqual(["metamask", "coinbase", "imtoken", "trust", "onchain"]);
    for (const w of WALLETS) {
      expect(w.site).toMatch(/^https:\/\//);
      expect(installMessageKey(w)).toBe(`web3.install_${w.id}`);
    }
    expect(walletById("nope")).toBeNull();
  });

  it("finds the chosen wallet's provider by its flag; MetaMask is not a wallet that only imitates it", () => {
    const metamask = walletById("metamask")!;
    const okx = walletById("onchain")!;
    const trust = walletById("trust")!;
    const okxProvider = { isMetaMask: true, isOkxWallet: true };
    const real = { isMetaMask: true };
    expect(findWalletProvider([okxProvider], metamask)).toBeNull();
    expect(findWalletProvider([okxProvider], okx)).toBe(okxProvider);
    expect(findWalletProvider([okxProvider, real], metamask)).toBe(real);
    expect(findWalletProvider([{ isTrustWallet: true }], trust)).not.toBeNull();
    expect(findWalletProvider([{ isTrust: true }], trust)).not.toBeNull();
    expect(findWalletProvider([undefined, null, { isCoinbaseWallet: "yes" }], walletById("coinbase")!)).toBeNull();
    expect(findWalletProvider([], metamask)).toBeNull();
  });

  it("names the wallet's chain when it is allowed, else Ethereum", () => {
    expect(chainIdFor("0x1")).toBe(1);
    expect(chainIdFor("0x2105")).toBe(8453);
    expect(chainIdFor("0xaa36a7")).toBe(1);
    expect(chainIdFor(137)).toBe(137);
    expect(chainIdFor(undefined)).toBe(1);
  });
});
