// Factories and HTTP helpers for integration tests: users and sessions are created directly
// (not through the UI), requests go through the real Worker (SELF).
import { SELF, env } from "cloudflare:test";
import { MARKET_ROOM } from "~/domain/rooms";
import { AccountKind, PlatformAccount } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";
import { forgetInstruments, forgetQuotes } from "~/services/market.server";
// @ts-expect-error -- no type declarations for the generated bundle (the Worker's own copy of the services)
import * as workerBuild from "../../build/index.js";
import { hashPassword } from "~/services/password.server";
import { createSession, sessionCookie } from "~/services/session.server";
import { LOCAL_PEPPER, readConfig } from "~/env.server";

export const ORIGIN = "http://localhost";
let counter = 0;

export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export async function createUser(options: { email?: string; password?: string; isDemo?: boolean; mobile?: string } = {}) {
  const email = options.isDemo ? null : (options.email ?? uniqueEmail());
  const uid = String(20_000_000 + Math.floor(Math.random() * 70_000_000));
  const invite = Math.random().toString(36).slice(2, 10).toUpperCase();
  const hash = options.password ? await hashPassword(options.password, LOCAL_PEPPER, 100_000) : null;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (uid, company_id, email, mobile, password_hash, invite_code, is_demo, demo_id) VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7)",
    ).bind(uid, email, options.mobile ?? null, hash, invite, options.isDemo ? 1 : 0, options.isDemo ? crypto.randomUUID() : null),
    ...[AccountKind.Funding, AccountKind.Options, AccountKind.Contract].map((k) =>
      env.DB.prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES ((SELECT id FROM users WHERE uid = ?1), ?2, ?3)").bind(
        uid,
        k.kind,
        k.accountTypeId,
      ),
    ),
  ]);
  const row = await env.DB.prepare("SELECT id FROM users WHERE uid = ?1").bind(uid).first<{ id: number }>();
  const accounts = await env.DB.prepare("SELECT id, kind FROM accounts WHERE user_id = ?1")
    .bind(row!.id)
    .all<{ id: number; kind: string }>();
  const byKind = Object.fromEntries(accounts.results.map((a) => [a.kind, a.id])) as Record<"funding" | "options" | "contract", number>;
  return { id: row!.id, uid, email, accounts: byKind, inviteCode: invite };
}

export async function sessionFor(userId: number) {
  return createSession(env.DB, userId, "vitest");
}

/** The web app's session cookie (signed, as the browser holds it) for a token, as a Cookie header. */
export async function signedSessionCookie(token: string) {
  const header = await sessionCookie(readConfig(env)).serialize(token);
  return header.split(";")[0]!;
}

/** Credits a user's account from the external deposits account through the ledger. */
export async function fund(accountId: number, amount: number, key = crypto.randomUUID()) {
  return post(env.DB, {
    idempotencyKey: key,
    kind: "deposit",
    postings: [
      { accountId, amount },
      { accountId: PlatformAccount.ExternalDeposits.id, amount: -amount },
    ],
  });
}

export function form(
  path: string,
  fields: Record<string, string>,
  init: { cookie?: string; origin?: string | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {
    host: "localhost",
    "accept-language": "en",
    "content-type": "application/x-www-form-urlencoded",
    ...(init.headers ?? {}),
  };
  if (init.origin !== null) headers.origin = init.origin ?? ORIGIN;
  if (init.cookie) headers.cookie = init.cookie;
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields).toString(), headers, redirect: "manual" });
}

export function get(path: string, init: { cookie?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: "localhost", "accept-language": "en", ...(init.headers ?? {}) };
  if (init.cookie) headers.cookie = init.cookie;
  return SELF.fetch(`${ORIGIN}${path}`, { headers, redirect: "manual" });
}

/** The name=value pairs a response sets, as a Cookie header for the next request. */
export function cookiesFrom(response: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((kv) => [kv.split("=")[0]!, kv] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(line) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

export async function latestCode(to: string) {
  const row = await env.DB.prepare("SELECT body FROM outbox WHERE `to` = ?1 ORDER BY id DESC LIMIT 1").bind(to).first<{ body: string }>();
  return row?.body.match(/\b(\d{6})\b/)?.[1] ?? null;
}

/** What a user sees of a page: its text without scripts (the page's embedded data holds every message of the language). */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The errors a form shows (its role="alert" summary), as text. */
export function formErrors(html: string): string {
  const m = /<div class="form-errors"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return m ? visibleText(m[1]!).trim() : "";
}

/** Every link and form target of a page. */
export function targets(html: string): string[] {
  return [...html.replace(/<script[\s\S]*?<\/script>/g, "").matchAll(/\s(?:href|action)="([^"]*)"/g)].map((m) => m[1]!);
}

/**
 * A socket at /v2/ws through the Worker, with an inbox: `next` waits for a matching message.
 * `headers` go with the upgrade (a session cookie or an authorization header signs it in).
 */
export async function openSocket(headers: Record<string, string> = {}) {
  const res = await SELF.fetch(`${ORIGIN}/v2/ws`, { headers: { ...headers, upgrade: "websocket", host: "localhost" } });
  if (res.status !== 101 || !res.webSocket) throw new Error(`socket refused: ${res.status}`);
  const ws = res.webSocket;
  ws.accept();
  const inbox: Record<string, unknown>[] = [];
  let closed: { code: number } | null = null;
  ws.addEventListener("message", (e) => {
    inbox.push(JSON.parse(String(e.data)));
  });
  ws.addEventListener("close", (e) => (closed = { code: e.code }));
  const next = async (predicate: (m: Record<string, unknown>) => boolean, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = inbox.findIndex(predicate);
      if (i >= 0) return inbox.splice(i, 1)[0]!;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(inbox.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const send = (m: unknown) => {
    if (!closed) ws.send(typeof m === "string" ? m : JSON.stringify(m));
  };
  return { ws, next, inbox, closed: () => closed, send };
}

/** A socket logged in as a user (with a fresh session of theirs). */
export async function loggedInSocket(userId: number) {
  const s = await openSocket();
  s.send({ type: "login", token: await sessionFor(userId) });
  await s.next((m) => m.type === "login_result" && m.code === 1);
  return s;
}

/**
 * Drops the quotes kept by both copies of the services in this isolate: the one the tests import
 * and the Worker's (the Remix build that SELF runs).
 */
export function forgetAllQuotes() {
  forgetQuotes();
  (workerBuild as { entry: { module: { forgetQuotes: () => void } } }).entry.module.forgetQuotes();
}

/** Drops the instrument list kept by both copies of the services (after a test edits the instruments table). */
export function forgetAllInstruments() {
  forgetInstruments();
  (workerBuild as { entry: { module: { forgetInstruments: () => void } } }).entry.module.forgetInstruments();
}

/**
 * The main market room (the one with the engine). Tests move its clock and hold its prices
 * directly, which the Worker's kept quotes cannot see (the local price control does the same
 * through the Worker, which forgets them): every call through this stub forgets them afterwards.
 */
export const mainRoom = () => {
  const stub = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName(MARKET_ROOM));
  return new Proxy(stub, {
    get(target, prop) {
      if (typeof prop !== "string" || prop === "then" || typeof Reflect.get(target, prop) !== "function") return Reflect.get(target, prop);
      return async (...args: unknown[]) => {
        try {
          return await (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]!(...args);
        } finally {
          forgetAllQuotes();
        }
      };
    },
  });
};

let testClock = 0;
/**
 * Runs a tick of the main room now (or at `at`), on a test clock that always moves at least a
 * second past the room's last tick, so a held price trades. Answers the tick's time.
 */
export async function tickMain(at?: number): Promise<number> {
  testClock = Math.max(at ?? 0, Date.now(), testClock + 1000, (await mainRoom().engineView()).lastTick + 1000);
  await mainRoom().tickNow(testClock);
  return testClock;
}

/** Holds an instrument at a price (the room's scripted mode) and ticks once at it. */
export async function holdPrice(code: string, price: number): Promise<number> {
  await mainRoom().setPrice(code, price);
  return tickMain();
}

/** An account's available and locked balances (micros). */
export async function accountBalances(accountId: number) {
  return (await env.DB.prepare("SELECT balance, lock_balance AS locked FROM accounts WHERE id = ?1")
    .bind(accountId)
    .first<{ balance: number; locked: number }>())!;
}

const TRADER_FUNDS = 10_000_000_000;

/** An approved copy-trading trader with 10,000.00 in the contract account (statistics fresh as of now). */
export async function aTrader() {
  const user = await createUser();
  await fund(user.accounts.contract, TRADER_FUNDS);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(user.id),
    // statistics fresh as of now: a close must make the next read of the ranking recompute them
    env.DB.prepare("INSERT INTO traders (user_id, nickname, status, approved_at, stats_at) VALUES (?1, ?2, 1, ?3, ?4)").bind(
      user.id,
      `trader-${user.id}`,
      Date.now() - 60_000,
      Date.now(),
    ),
  ]);
  return user;
}

/** A user following `traderId` (copy multiple, bond cap, funded balance, status, copy stop-loss in micros). */
export async function aFollower(
  traderId: number,
  opts: { multiple: number; bond: number; balance: number; status?: number; isDemo?: boolean; copyStopLoss?: number },
) {
  const user = await createUser({ isDemo: opts.isDemo });
  if (opts.balance > 0) await fund(user.accounts.contract, opts.balance);
  await env.DB.prepare(
    "INSERT INTO follows (follower_id, trader_id, multiple, max_amount, status, created_at, copy_stop_loss) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  )
    .bind(user.id, traderId, opts.multiple, opts.bond, opts.status ?? 1, Date.now() - 30_000, opts.copyStopLoss ?? 0)
    .run();
  return user;
}
