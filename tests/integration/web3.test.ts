// Web3 login through the real Worker (spec §2 /user/web3-login, §5, §7 get_nonce and web3_login):
// a key generated here signs EIP-4361 messages as a browser wallet would.
import { SELF, env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { buildLoginMessage, type LoginMessageInput } from "~/domain/web3";
import { createWalletUser } from "~/services/auth/accounts.server";
import { ORIGIN, cookiesFrom, get, signedSessionCookie, visibleText } from "./helpers";

let clients = 0;
/** A client address of its own per test, so the per-client throttles of one test never touch another. */
const newClient = () => `198.51.100.${++clients}`;

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

async function call<T = Record<string, unknown>>(
  path: string,
  body: Record<string, string>,
  ip: string,
): Promise<{ status: number; json: Envelope<T> }> {
  const res = await SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { host: "localhost", origin: ORIGIN, "accept-language": "en", "content-type": "application/json", "cf-connecting-ip": ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Envelope<T> };
}

type Issued = { nonce: string; w_address: string; issued_at: string; expiration_time: string };

async function getNonce(address: string, ip: string) {
  const { status, json } = await call<Issued>("/api/user/get_nonce", { w_address: address }, ip);
  expect(status).toBe(200);
  expect(json.code, json.msg).toBe(1);
  return json.data;
}

function messageFor(issued: Issued, account: PrivateKeyAccount, over: Partial<LoginMessageInput> = {}) {
  return buildLoginMessage({
    domain: "localhost",
    origin: ORIGIN,
    address: account.address,
    nonce: issued.nonce,
    chainId: 1,
    issuedAt: new Date(issued.issued_at),
    expirationTime: new Date(issued.expiration_time),
    ...over,
  });
}

/** A signed login body: a fresh nonce for the account, the message, its signature. */
async function signedLogin(account: PrivateKeyAccount, ip: string, over: Partial<LoginMessageInput> = {}) {
  const issued = await getNonce(account.address, ip);
  const message = messageFor(issued, account, over);
  return { w_address: account.address, nonce: issued.nonce, message, signature: await account.signMessage({ message }) };
}

const login = (body: Record<string, string>, ip: string) =>
  call<{ token: string; user: { uid: string; id: number; w_address: string; email: string } }>("/api/user/web3_login", body, ip);

const count = async (sql: string, ...args: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;
const usersNow = () => count("SELECT COUNT(*) AS n FROM users");
const walletRows = (address: string) => count("SELECT COUNT(*) AS n FROM user_wallets WHERE address = ?1", address.toLowerCase());
const sessionsNow = () => count("SELECT COUNT(*) AS n FROM sessions");
const nonceUsed = async (nonce: string) =>
  (await env.DB.prepare("SELECT used_at AS u FROM web3_nonces WHERE nonce = ?1").bind(nonce).first<{ u: number | null }>())?.u ?? null;

/** Asserts a refusal: the message, no 5xx, and nothing created. */
async function expectRefused(body: Record<string, string>, ip: string, msg: string) {
  const before = { users: await usersNow(), sessions: await sessionsNow() };
  const { status, json } = await login(body, ip);
  expect(status).toBe(200);
  expect(json.code).toBe(0);
  expect(json.msg).toBe(msg);
  expect(JSON.stringify(json)).not.toMatch(/token/);
  expect({ users: await usersNow(), sessions: await sessionsNow() }).toEqual(before);
}

const LOGIN_FAILED = "Wallet login failed. Please try again.";
const NONCE_NOT_FOUND = "This login request has expired or was already used. Please try again.";

describe("get_nonce", () => {
  it("gives a fresh 128-bit alphanumeric nonce bound to the lowercased address for 5 minutes", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const a = await getNonce(account.address, ip);
    const b = await getNonce(account.address, ip);
    expect(a.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(b.nonce).not.toBe(a.nonce);
    expect(a.w_address).toBe(account.address.toLowerCase());
    const row = await env.DB.prepare("SELECT address, expires_at AS expiresAt, used_at AS usedAt FROM web3_nonces WHERE nonce = ?1")
      .bind(a.nonce)
      .first<{ address: string; expiresAt: number; usedAt: number | null }>();
    expect(row!.address).toBe(account.address.toLowerCase());
    expect(row!.usedAt).toBeNull();
    expect(row!.expiresAt - Date.parse(a.issued_at)).toBe(5 * 60_000);
    expect(Date.parse(a.expiration_time)).toBe(row!.expiresAt);
  });

  it("refuses an address that is not 0x + 40 hex digits with a clear message and stores nothing", async () => {
    const ip = newClient();
    const before = await count("SELECT COUNT(*) AS n FROM web3_nonces");
    for (const bad of ["0x123", "hello", `0x${"z".repeat(40)}`, "", "<script>alert(1)</script>", `0x${"a".repeat(40)}' OR 1=1 --`]) {
      const { status, json } = await call("/api/user/get_nonce", { w_address: bad }, ip);
      expect(status, bad).toBe(200);
      expect(json.code, bad).toBe(0);
      expect(json.msg, bad).toBe("Enter a valid wallet address: 0x followed by 40 hexadecimal characters.");
    }
    expect(await count("SELECT COUNT(*) AS n FROM web3_nonces")).toBe(before);
  });

  it("is limited per client: a burst in parallel gets at most 30 nonces", async () => {
    const ip = newClient();
    const account = privateKeyToAccount(generatePrivateKey());
    const answers = await Promise.all(Array.from({ length: 35 }, () => call("/api/user/get_nonce", { w_address: account.address }, ip)));
    expect(answers.filter((a) => a.json.code === 1)).toHaveLength(30);
    const refused = answers.filter((a) => a.json.code !== 1);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.status).toBe(429);
    expect(await count("SELECT COUNT(*) AS n FROM web3_nonces WHERE address = ?1", account.address.toLowerCase())).toBe(30);
  });
});

describe("web3_login", () => {
  it("creates a user (with its three accounts) on the first login and logs the same user in the second time", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const first = await login(await signedLogin(account, ip), ip);
    expect(first.json.code, first.json.msg).toBe(1);
    expect(first.json.msg).toBe("Logged in");
    const { token, user } = first.json.data;
    expect(token.length).toBeGreaterThan(20);
    expect(user.uid).toMatch(/^\d{8}$/);
    expect(user.w_address).toBe(account.address.toLowerCase());
    expect(user.email).toBe("");
    const row = await env.DB.prepare("SELECT email, password_hash AS hash, invite_code AS invite, is_demo AS demo FROM users WHERE id = ?1")
      .bind(user.id)
      .first<{ email: string | null; hash: string | null; invite: string; demo: number }>();
    expect(row).toMatchObject({ email: null, hash: null, demo: 0 });
    expect(row!.invite).toMatch(/^[A-Z0-9]{8}$/);
    expect(await count("SELECT COUNT(*) AS n FROM accounts WHERE user_id = ?1", user.id)).toBe(3);
    expect(await walletRows(account.address)).toBe(1);

    const usersBefore = await usersNow();
    const second = await login(await signedLogin(account, ip), ip);
    expect(second.json.code).toBe(1);
    expect(second.json.data.user.uid).toBe(user.uid);
    expect(second.json.data.token).not.toBe(token);
    expect(await usersNow()).toBe(usersBefore);
    expect(await walletRows(account.address)).toBe(1);

    // The token is a session: the user centre names the wallet by its short address.
    const page = await get("/user", { cookie: await signedSessionCookie(second.json.data.token) });
    expect(page.status).toBe(200);
    const address = account.address.toLowerCase();
    const html = await page.text();
    expect(visibleText(html)).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`);
    // no password to change
    expect(html).not.toContain('href="/mine/password"');
  });

  it("a wallet already linked aborts a second user's whole creation batch (no user without its wallet)", async () => {
    const ctx = await createServiceContext(env);
    const address = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const before = { users: await usersNow(), accounts: await count("SELECT COUNT(*) AS n FROM accounts") };
    const [a, b] = await Promise.all([createWalletUser(ctx, address), createWalletUser(ctx, address)]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(a.ok ? b : a).toEqual({ ok: false, duplicate: true });
    expect(await usersNow()).toBe(before.users + 1);
    expect(await count("SELECT COUNT(*) AS n FROM accounts")).toBe(before.accounts + 3);
    expect(await walletRows(address)).toBe(1);
  });

  it("first logins of one wallet in parallel (several nonces) make one user and sign each in as it", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const before = await usersNow();
    const bodies = await Promise.all([signedLogin(account, ip), signedLogin(account, ip), signedLogin(account, ip)]);
    const results = await Promise.all(bodies.map((b) => login(b, ip)));
    expect(results.map((r) => r.json.code)).toEqual([1, 1, 1]);
    expect(new Set(results.map((r) => r.json.data.user.uid)).size).toBe(1);
    expect(await usersNow()).toBe(before + 1);
    expect(await walletRows(account.address)).toBe(1);
  });

  it("refuses a replayed nonce, and of two parallel logins with one nonce exactly one succeeds", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const body = await signedLogin(account, ip);
    const results = await Promise.all([login(body, ip), login(body, ip), login(body, ip)]);
    expect(results.map((r) => r.json.code).sort()).toEqual([0, 0, 1]);
    for (const r of results.filter((x) => x.json.code === 0)) {
      expect(r.status).toBe(200);
      expect(r.json.msg).toBe(NONCE_NOT_FOUND);
    }
    expect(await walletRows(account.address)).toBe(1);
    // and later, once more
    await expectRefused(body, ip, NONCE_NOT_FOUND);
  });

  it("refuses an expired nonce, a nonce of another address and a nonce never issued; nothing is created", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();

    const expired = await signedLogin(account, ip);
    await env.DB.prepare("UPDATE web3_nonces SET expires_at = ?2 WHERE nonce = ?1")
      .bind(expired.nonce, Date.now() - 1)
      .run();
    await expectRefused(expired, ip, NONCE_NOT_FOUND);

    // a nonce asked for another address, in a message this wallet really signed
    const foreign = await getNonce(other.address, ip);
    const message = messageFor(foreign, account);
    await expectRefused(
      { w_address: account.address, nonce: foreign.nonce, message, signature: await account.signMessage({ message }) },
      ip,
      NONCE_NOT_FOUND,
    );
    expect(await nonceUsed(foreign.nonce)).toBeNull();

    const invented = {
      nonce: "0123456789abcdef0123456789abcdef",
      issued_at: new Date().toISOString(),
      expiration_time: new Date(Date.now() + 60_000).toISOString(),
      w_address: "",
    };
    const inventedMessage = messageFor(invented, account);
    await expectRefused(
      {
        w_address: account.address,
        nonce: invented.nonce,
        message: inventedMessage,
        signature: await account.signMessage({ message: inventedMessage }),
      },
      ip,
      NONCE_NOT_FOUND,
    );
    expect(await walletRows(account.address)).toBe(0);
  });

  it("refuses a message for another domain, another origin or another chain, and an oversized one; the nonce stays usable", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const issued = await getNonce(account.address, ip);
    const signedWith = async (message: string) => ({
      w_address: account.address,
      nonce: issued.nonce,
      message,
      signature: await account.signMessage({ message }),
    });
    await expectRefused(await signedWith(messageFor(issued, account, { domain: "evil.example" })), ip, LOGIN_FAILED);
    await expectRefused(await signedWith(messageFor(issued, account, { origin: "https://evil.example" })), ip, LOGIN_FAILED);
    await expectRefused(await signedWith(messageFor(issued, account, { chainId: 11155111 })), ip, LOGIN_FAILED);
    const big = messageFor(issued, account).replace(
      "Sign in to Bourse with this wallet.",
      `Sign in to Bourse with this wallet.${" pad".repeat(600)}`,
    );
    await expectRefused(await signedWith(big), ip, LOGIN_FAILED);
    expect(await nonceUsed(issued.nonce)).toBeNull();
    expect(await walletRows(account.address)).toBe(0);
    // the same nonce in a right message still logs in
    const good = await login(await signedWith(messageFor(issued, account)), ip);
    expect(good.json.code).toBe(1);
  });

  it("refuses malformed signatures, another key's signature and a mismatched address; nothing is created", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const thief = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const body = await signedLogin(account, ip);
    await expectRefused({ ...body, signature: "0x1234" }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, signature: `0x${"ff".repeat(65)}` }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, signature: `0x${"00".repeat(65)}` }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, signature: "" }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, signature: await thief.signMessage({ message: body.message }) }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, w_address: thief.address }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, message: `${body.message}\nExtra: 1` }, ip, LOGIN_FAILED);
    await expectRefused({ ...body, w_address: "0x12" }, ip, "Enter a valid wallet address: 0x followed by 40 hexadecimal characters.");
    expect(await nonceUsed(body.nonce)).toBeNull();
    expect(await walletRows(account.address)).toBe(0);
    expect(await walletRows(thief.address)).toBe(0);
  });
});

describe("web3_login throttle", () => {
  it("limits failed logins per client (30 in 10 minutes, reserved before any check); successful ones do not count", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    // successful logins give their slot back
    for (let i = 0; i < 3; i++) expect((await login(await signedLogin(account, ip), ip)).json.code).toBe(1);
    const body = await signedLogin(account, ip);
    const wrong = { ...body, signature: `0x${"ff".repeat(65)}` };
    const burst = await Promise.all(Array.from({ length: 32 }, () => login(wrong, ip)));
    expect(burst.filter((r) => r.status === 429)).toHaveLength(2);
    for (const r of burst.filter((x) => x.status !== 429)) expect(r.json.msg).toBe(LOGIN_FAILED);
    const refused = await login(body, ip);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe(0);
    expect(refused.json.msg).toBe("Too many requests. Please try again later.");
    expect(await nonceUsed(body.nonce)).toBeNull();
    // another client is not affected
    const elsewhere = newClient();
    expect((await login(await signedLogin(account, elsewhere), elsewhere)).json.code).toBe(1);
  });
});

describe("the /user/web3-login page", () => {
  it("logs in through the page's action with a session cookie and goes to the `from` target (safely)", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = newClient();
    const post = async (body: Record<string, string>) =>
      SELF.fetch(`${ORIGIN}/user/web3-login`, {
        method: "POST",
        headers: { host: "localhost", origin: ORIGIN, "accept-language": "en", "content-type": "application/json", "cf-connecting-ip": ip },
        body: JSON.stringify(body),
        redirect: "manual",
      });
    const res = await post({ ...(await signedLogin(account, ip)), from: "/mine/wallet" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mine/wallet");
    const cookie = cookiesFrom(res);
    expect(cookie).toContain("__Host-bourse_session=");
    const home = await get("/", { cookie });
    const address = account.address.toLowerCase();
    expect(visibleText(await home.text())).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`);

    const offsite = await post({ ...(await signedLogin(account, ip)), from: "//evil.example" });
    expect(offsite.status).toBe(302);
    expect(offsite.headers.get("location")).toBe("/user");

    // a refusal re-renders with the message, and no cookie
    const replay = await signedLogin(account, ip);
    expect((await post(replay)).status).toBe(302);
    const again = await post(replay);
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie().some((c) => c.startsWith("__Host-bourse_session="))).toBe(false);
    expect(await again.text()).toContain("web3.nonce_not_found");
  });

  it("renders, without JavaScript, the explanation and a link to e-mail login; /login links to it; it is no longer 'coming soon'", async () => {
    const res = await get("/user/web3-login?from=%2Ftrade");
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = visibleText(html);
    expect(text).toContain("Wallet login needs a browser wallet (such as MetaMask) and JavaScript.");
    expect(text).not.toContain("Coming soon");
    expect(html).toContain('href="/login?from=%2Ftrade"');
    const loginPage = await (await get("/login")).text();
    expect(loginPage).toContain('href="/user/web3-login"');
    expect(visibleText(loginPage)).toContain("Log in with a wallet");
    // someone already signed in goes on to `from`
    const ip = newClient();
    const token = (await login(await signedLogin(privateKeyToAccount(generatePrivateKey()), ip), ip)).json.data.token;
    expect(token).toBeTruthy();
    const signedIn = await get("/user/web3-login?from=%2Ftrade", { cookie: await signedSessionCookie(token) });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/trade");
  });
});
