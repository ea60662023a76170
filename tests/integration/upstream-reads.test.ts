// Upstream mode's reads (issue 23, ADR 024) against a real §7 backend (this Worker as the
// platform): the public reads through the D1 cache (fresh, stale when the backend is slow or
// down, never a malformed answer), the instruments and company as the pages see them, and the
// signed-in user's balance, which is the backend's to the micro and never cached.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { listCategories, listInstruments, simInstruments } from "~/services/market.server";
import { assetsOverview, companyInfo, myAssets } from "~/services/account.server";
import { login } from "~/services/auth/sign-in.server";
import { runScheduledJobs } from "~/services/jobs.server";
import { revokeAllSessions } from "~/services/session.server";
import { cachedRead, forgetUpstreamCache, FRESH_MS, pruneUpstreamCache } from "~/services/upstream/cache.server";
import { newsItem, newsPage } from "~/services/content/pages.server";
import { upstreamUserForToken } from "~/services/upstream/sessions.server";
import * as v from "valibot";
import { createUser, forgetAllInstruments, fund } from "./helpers";
import { backend, frontContext, upstreamEnv } from "./upstream-helpers";

/** The backend, counting the calls that reach it. */
function countingBackend() {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    calls.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
    return backend(input, init);
  };
  return { calls, fetch };
}

const down: typeof fetch = async () => {
  throw new TypeError("connection refused");
};

const Company = v.object({ name: v.string() });

beforeEach(async () => {
  forgetUpstreamCache();
  await env.DB.prepare("DELETE FROM upstream_cache").run();
});

describe("the D1 cache of public reads", () => {
  const call = { path: "/api/company/getCompany", schema: Company, freshMs: FRESH_MS.settings };

  it("fresh: served without asking the backend again, across isolates (D1), per language", async () => {
    const backendCalls = countingBackend();
    const first = await cachedRead(await frontContext(null, backendCalls.fetch), call);
    expect(first).toMatchObject({ stale: false, data: { name: expect.any(String) } });
    forgetUpstreamCache(); // another isolate: D1 answers
    const again = await cachedRead(await frontContext(null, backendCalls.fetch), call);
    expect(again?.data).toEqual(first?.data);
    expect(backendCalls.calls).toEqual(["/api/company/getCompany"]);
    // another language is another answer of the backend's
    await cachedRead(await frontContext(null, backendCalls.fetch, "ar"), call);
    expect(backendCalls.calls).toHaveLength(2);
  });

  it("past its freshness: asked again; the backend down gives the last copy marked stale; no copy gives none", async () => {
    const first = await cachedRead(await frontContext(), call);
    const later = Date.now() + FRESH_MS.settings + 1;
    forgetUpstreamCache();
    const stale = await cachedRead(await frontContext(null, down), call, later);
    expect(stale).toEqual({ data: first!.data, stale: true, fetchedAt: first!.fetchedAt });
    // the backend back: a fresh answer replaces the copy
    const fresh = await cachedRead(await frontContext(), call, later);
    expect(fresh).toMatchObject({ stale: false, fetchedAt: later });
    // nothing kept at all and the backend down: no answer (the caller shows its fallback)
    expect(await cachedRead(await frontContext(null, down), { ...call, path: "/api/basicSet/getBasicInfo" })).toBeNull();
  });

  it("an answer that does not match the contract is never kept and never replaces a good copy", async () => {
    const first = await cachedRead(await frontContext(), call);
    const strange: typeof fetch = async () => Response.json({ code: 1, msg: "", data: { name: 42 } });
    forgetUpstreamCache();
    const later = Date.now() + FRESH_MS.settings + 1;
    expect(await cachedRead(await frontContext(null, strange), call, later)).toMatchObject({ stale: true, data: first!.data });
    const row = await env.DB.prepare("SELECT body FROM upstream_cache WHERE key = ?1")
      .bind("en /api/company/getCompany")
      .first<{ body: string }>();
    expect(JSON.parse(row!.body)).toMatchObject({ name: first!.data.name });
  });
});

describe("instruments, categories and company as the pages see them", () => {
  it("the backend's instruments carry the same terms as the platform's own, and nothing the contract does not say", async () => {
    forgetAllInstruments();
    const own = await listInstruments(await createServiceContext(env, { lang: "en" }));
    const front = await listInstruments(await frontContext());
    expect(front.map((i) => i.code)).toEqual(own.map((i) => i.code));
    for (const [n, i] of front.entries()) {
      const o = own[n]!;
      expect({ ...i, sessionKind: o.sessionKind, deliveryDays: o.deliveryDays, deliveryAt: o.deliveryAt, sort: undefined }).toMatchObject({
        ...o,
      });
      expect(i).toMatchObject({ sessionKind: "", deliveryDays: 0, deliveryAt: null });
    }
    // the market room's list: the backend's codes and a starting price
    const room = await simInstruments(await frontContext());
    expect(room.map((r) => r.code)).toEqual(own.map((i) => i.code));
    expect(room.every((r) => r.basePrice > 0)).toBe(true);
  });

  it("categories carry the backend's own name (in the page's language); the company is the backend's", async () => {
    const cats = await listCategories(await frontContext(null, backend, "de"));
    expect(cats.length).toBeGreaterThan(0);
    expect(cats.every((c) => c.key === "" && c.name.length > 0)).toBe(true);
    const own = await companyInfo(await createServiceContext(env, { lang: "en" }));
    expect(await companyInfo(await frontContext())).toMatchObject({ name: own!.name, status: own!.status });
  });

  it("the backend never answered: an empty market and no company, never this Worker's own rows", async () => {
    expect(await listInstruments(await frontContext(null, down))).toEqual([]);
    expect(await listCategories(await frontContext(null, down))).toEqual([]);
    expect(await companyInfo(await frontContext(null, down))).toBeNull();
  });
});

describe("news", () => {
  it("the backend's news, page and item, in the page's language; an item it does not know is none", async () => {
    const local = await createServiceContext(env, { lang: "de" });
    const own = await newsPage(local, { page: 1 });
    const front = await newsPage(await frontContext(null, backend, "de"), { page: 1 });
    expect(front.data.map((n) => [n.id, n.title])).toEqual(own.data.map((n) => [n.id, n.title]));
    expect(front.total).toBe(own.total);
    const first = own.data[0]!;
    expect(await newsItem(await frontContext(null, backend, "de"), first.id)).toMatchObject({ id: first.id, title: first.title });
    expect(await newsItem(await frontContext(), 987_654)).toBeNull();
  });

  it("the daily prune drops what was not read fresh for a week", async () => {
    await cachedRead(await frontContext(), { path: "/api/company/getCompany", schema: Company, freshMs: FRESH_MS.settings });
    const week = 7 * 24 * 60 * 60_000;
    expect(await pruneUpstreamCache(env.DB, Date.now() + week - 60_000)).toBe(0);
    expect(await pruneUpstreamCache(env.DB, Date.now() + week + 60_000)).toBeGreaterThan(0);
  });
});

describe("the signed-in user's balance", () => {
  async function signIn() {
    const user = await createUser({ password: "front-pass-1" });
    await fund(user.accounts.funding, 1_234_567_891); // 1,234.567891 USD
    await fund(user.accounts.contract, 10_000_001);
    const result = await login(await frontContext(), { account: user.email!, password: "front-pass-1" });
    if (!result.ok) throw new Error("sign-in refused");
    return { user, token: result.value.token };
  }

  it("is the backend's, as the backend states it, asked for each time (a credit shows on the next read)", async () => {
    const { user, token } = await signIn();
    const own = await assetsOverview(await createServiceContext(env, { lang: "en" }), user.id);
    const front = await myAssets(await frontContext(token), user.id);
    // getBalance states two decimals (spec §9): the front shows what the backend states
    expect(front).toMatchObject({ ok: true, value: { total: 1_244_560_000, profit: 0, percent: own.percent } });
    expect(front.ok && front.value.accounts.map((a) => [a.kind, a.balance])).toEqual([
      ["funding", 1_234_560_000],
      ["options", 0],
      ["contract", 10_000_000],
    ]);
    await fund(user.accounts.funding, 5_000_000);
    const after = await myAssets(await frontContext(token), user.id);
    expect(after.ok && after.value.total).toBe(1_249_560_000);
  });

  it("the backend ends the session: the read says so and our session ends; the backend down: unavailable", async () => {
    const { user, token } = await signIn();
    expect(await myAssets(await frontContext(token, down), user.id)).toEqual({ ok: false, kind: "unavailable" });
    await revokeAllSessions(env.DB, user.id); // e.g. a new password on the backend
    expect(await myAssets(await frontContext(token), user.id)).toEqual({ ok: false, kind: "session_ended" });
    expect(await upstreamUserForToken(env.DB, token)).toBeNull();
  });
});

it("scheduled jobs in upstream mode tidy this Worker's own tables and leave users and money to the backend", async () => {
  const report = await runScheduledJobs(upstreamEnv, "0 3 * * *", Date.now());
  expect(report).toMatchObject({
    "prune-sessions": expect.any(Number),
    "prune-rate-limits": expect.any(Number),
    "prune-upstream-cache": expect.any(Number),
  });
  for (const job of ["fund-income", "loan-penalties", "demo-expiry"]) expect(report[job]).toBe("skipped: the backend runs it");
});
