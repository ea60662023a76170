import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { forgetQuotes, quoteOf } from "~/services/market.server";
import { ORIGIN, createUser, forgetAllQuotes, fund, loggedInSocket, mainRoom, openSocket, sessionFor, tickMain } from "./helpers";

async function api<T = unknown>(path: string) {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { headers: { host: "localhost", lang: "en" } });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: T } };
}

describe("market data (JSON calls)", () => {
  it("trade_list gives every instrument with the spec's fields and a live quote", async () => {
    const { body } = await api<Record<string, unknown>[]>("/v2/api/forex/trade_list");
    expect(body.code).toBe(1);
    expect(body.data.length).toBeGreaterThanOrEqual(20);
    const btc = body.data.find((i) => i.Code === "BTCUSDT")!;
    expect(btc).toMatchObject({ ShowCode: "BTC/USDT", PricePrecision: 2, MarketStatus: 1, Status: 1 });
    expect((btc.ForexQuotations as { Close: number }).Close).toBeGreaterThan(0);
    expect(btc.HasForexMultiple).toEqual(expect.arrayContaining([{ Value: 10 }]));
  });

  it("getCategories names categories in the caller's language", async () => {
    const { body } = await api<{ Id: number; NameShowTrans: string }[]>("/v2/api/forex/getCategories");
    expect(body.data.map((c) => c.NameShowTrans)).toEqual(["Forex", "Metals", "Crypto", "Indices", "Energy"]);
  });

  it("kline gives 300 candles for every period, and refuses unknown periods and instruments", async () => {
    for (const period of ["1min", "5min", "15min", "30min", "60min", "1day"]) {
      const { body } = await api<{ timestamp: number; open: number; high: number; low: number; close: number; volume: number }[]>(
        `/v2/api/forex/kline?forex_id=1&period=${period}`,
      );
      expect(body.data.length, period).toBe(300);
      expect(body.data[0]).toEqual({
        timestamp: expect.any(Number),
        open: expect.any(Number),
        high: expect.any(Number),
        low: expect.any(Number),
        close: expect.any(Number),
        volume: expect.any(Number),
      });
    }
    expect((await api("/v2/api/forex/kline?forex_id=1&period=2min")).body.code).toBe(0);
    expect((await api("/v2/api/forex/kline?forex_id=999&period=5min")).body.code).toBe(0);
    expect((await api("/v2/api/forex/kline?forex_id=abc")).body.code).toBe(0);
    const mini = await api<{ timestamp: number; close: number }[]>("/v2/api/forex/abbreviated_cache_kline?forex_id=1");
    expect(mini.body.data.length).toBe(48);
  });

  it("a scripted price holds until released", async () => {
    const set = await SELF.fetch(`${ORIGIN}/dev/market/price`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ code: "ETH/USDT", price: 3210.5 }),
    });
    expect(set.status).toBe(200);
    const { body } = await api<{ Code: string; ForexQuotations: { Close: number } }[]>("/v2/api/forex/trade_list");
    expect(body.data.find((i) => i.Code === "ETHUSDT")!.ForexQuotations.Close).toBe(3210.5);
    const bad = await SELF.fetch(`${ORIGIN}/dev/market/price`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ code: "NOPE", price: 1 }),
    });
    expect(bad.status).toBe(404);
    const release = await SELF.fetch(`${ORIGIN}/dev/market/price`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ code: "ETHUSDT", price: null }),
    });
    expect(release.status).toBe(200);
  });

  it("an order's quote is the held price at once, as the market list shows it", async () => {
    const room = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-held-quote"));
    await room.setPrice("SOLUSDT", 101.25);
    expect((await room.quote("SOLUSDT")).quote!.Close).toBe(101.25);
    // within the same tick, a second hold is what the next order reads (no cached price)
    await room.setPrice("SOLUSDT", 99.5);
    expect((await room.quote("SOLUSDT")).quote!.Close).toBe(99.5);
    expect((await room.snapshot()).quotes.find((q) => q.Code === "SOLUSDT")!.Close).toBe(99.5);
    await room.setPrice("SOLUSDT", null);
  });
});

describe("quotes kept by the Worker until the room's next tick", () => {
  /** The room without the test helper that forgets kept quotes: it moves without telling this isolate. */
  const raw = () => env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("main"));

  it("serves a read quote for the rest of its second, never past it nor before its tick", async () => {
    const ctx = await createServiceContext(env);
    await mainRoom().setPrice("XRPUSDT", 0.8);
    const tick = await tickMain();
    forgetQuotes();
    const first = await quoteOf(ctx, "XRPUSDT", tick);
    expect(first.quote!.Close).toBe(0.8);
    // the room moves without telling this isolate (as a direct call does): the kept quote stands within the second…
    await raw().setPrice("XRPUSDT", 0.9);
    expect((await quoteOf(ctx, "XRPUSDT", tick + 500)).quote!.Close).toBe(0.8);
    // …but not at the next tick, nor when this isolate's clock is behind the quote's tick
    expect((await quoteOf(ctx, "XRPUSDT", tick + 1000)).quote!.Close).toBe(0.9);
    forgetQuotes();
    await raw().setPrice("XRPUSDT", 0.85);
    await quoteOf(ctx, "XRPUSDT", tick - 1);
    await raw().setPrice("XRPUSDT", 0.95);
    expect((await quoteOf(ctx, "XRPUSDT", tick - 1)).quote!.Close).toBe(0.95);
    await mainRoom().setPrice("XRPUSDT", null);
  });

  it("the local price control is the order's price at once, even within the same second", async () => {
    const user = await createUser();
    await fund(user.accounts.contract, 1_000_000_000);
    const token = await sessionFor(user.id);
    const hold = (price: number) =>
      SELF.fetch(`${ORIGIN}/dev/market/price`, {
        method: "POST",
        headers: { host: "localhost", "content-type": "application/json" },
        body: JSON.stringify({ code: "BNBUSDT", price }),
      });
    const order = async () => {
      const res = await SELF.fetch(`${ORIGIN}/v2/api/forex/submit?type=1&cont=1&forex_id=${bnb}&status=1&multiple=10`, {
        headers: { host: "localhost", authorization: token },
      });
      return (await res.json()) as { code: number; data: { Price: string } };
    };
    const bnb = (await env.DB.prepare("SELECT id FROM instruments WHERE code = 'BNBUSDT'").first<{ id: number }>())!.id;
    forgetAllQuotes();
    expect((await hold(5)).status).toBe(200);
    const a = await order();
    expect(a.code).toBe(1);
    expect(Number(a.data.Price)).toBe(5);
    expect((await hold(6)).status).toBe(200);
    const b = await order();
    expect(Number(b.data.Price)).toBe(6);
    await SELF.fetch(`${ORIGIN}/dev/market/price`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json" },
      body: JSON.stringify({ code: "BNBUSDT", price: null }),
    });
  });
});

describe("the /v2/ws socket (spec §4)", () => {
  it("answers ping with pong, logs in with a session token, refuses a forged one", async () => {
    const s = await openSocket();
    s.send({ type: "ping", timestamp: 1700000000000 });
    expect(await s.next((m) => m.type === "pong")).toEqual({ type: "pong", timestamp: 1700000000000 });
    s.send({ type: "login", token: "forged" });
    expect(await s.next((m) => m.type === "login_result")).toEqual({ type: "login_result", code: 0 });
    const user = await createUser();
    s.send({ type: "login", token: await sessionFor(user.id) });
    expect(await s.next((m) => m.type === "login_result")).toEqual({ type: "login_result", code: 1 });
    s.ws.close();
  });

  it("streams DAY_MARKET and KLINE candles of the subscribed period every second", async () => {
    const s = await openSocket();
    s.send({ type: "sub", topic: "DAY_MARKET" });
    s.send({ type: "sub", topic: "KLINE.BTCUSDT", period: "1min" });
    const day = (await s.next((m) => m.type === "DAY_MARKET", 8000)) as {
      data: { ShowCode: string; Close: number; MarketStatus: number }[];
    };
    expect(day.data.length).toBeGreaterThanOrEqual(20);
    expect(day.data[0]).toMatchObject({
      Id: expect.any(Number),
      ShowCode: expect.any(String),
      Open: expect.any(Number),
      Close: expect.any(Number),
      High: expect.any(Number),
      Low: expect.any(Number),
      Change: expect.any(Number),
      Volume: expect.any(Number),
      MarketStatus: expect.any(Number),
      time: expect.any(Number),
    });
    const kline = (await s.next((m) => m.type === "KLINE.BTCUSDT", 8000)) as { data: { period: string; timestamp: number } };
    expect(kline.data.period).toBe("1min");
    expect(kline.data.timestamp % 60_000).toBe(0);
    s.ws.close();
  });

  it("a change of subscription applies from the next tick: a new period, an unsubscribed topic stops", async () => {
    const s = await openSocket();
    const other = await openSocket();
    other.send({ type: "sub", topic: "DAY_MARKET" });
    s.send({ type: "sub", topic: "DAY_MARKET" });
    s.send({ type: "sub", topic: "KLINE.BTCUSDT", period: "1min" });
    await s.next((m) => m.type === "DAY_MARKET", 8000);
    await s.next((m) => m.type === "KLINE.BTCUSDT", 8000);
    await other.next((m) => m.type === "DAY_MARKET", 8000);
    s.send({ type: "sub", topic: "KLINE.BTCUSDT", period: "5min" });
    s.send({ type: "unsub", topic: "DAY_MARKET" });
    // the frames of a tick already on its way may still arrive: wait past it, then start afresh
    await new Promise((r) => setTimeout(r, 1500));
    s.inbox.length = 0;
    const kline = (await s.next((m) => m.type === "KLINE.BTCUSDT", 8000)) as { data: { period: string } };
    expect(kline.data.period).toBe("5min");
    await s.next((m) => m.type === "KLINE.BTCUSDT", 8000);
    expect(s.inbox.filter((m) => m.type === "DAY_MARKET")).toEqual([]);
    expect(s.inbox.filter((m) => m.type === "KLINE.BTCUSDT" && (m.data as { period: string }).period !== "5min")).toEqual([]);
    // the other socket, unchanged, kept its ticks
    await other.next((m) => m.type === "DAY_MARKET", 8000);
    other.ws.close();
    s.ws.close();
  });

  it("warns about malformed frames, missing types, unknown topics and unsubscribing what was not subscribed, and keeps working", async () => {
    const s = await openSocket();
    for (const bad of [
      "not json",
      JSON.stringify({ topic: "x" }),
      JSON.stringify({ type: "sub", topic: "KLINE.NOPE" }),
      JSON.stringify({ type: "unsub", topic: "DAY_MARKET" }),
      "x".repeat(10_000),
      JSON.stringify({ type: "sub", topic: "KLINE.BTCUSDT", period: "7min" }),
    ]) {
      s.send(bad);
      expect((await s.next((m) => m.type === "warning")).msg).toEqual(expect.any(String));
    }
    s.send({ type: "ping", timestamp: 1 });
    expect(await s.next((m) => m.type === "pong")).toEqual({ type: "pong", timestamp: 1 });
    s.ws.close();
  });

  it("delivers per-user topics only to that user's logged-in sockets", async () => {
    const { publishToUser } = await import("~/services/live.server");
    const alice = await createUser();
    const bob = await createUser();
    const a = await loggedInSocket(alice.id);
    const b = await loggedInSocket(bob.id);
    a.send({ type: "sub", topic: "FOREX_TRADE" });
    b.send({ type: "sub", topic: "FOREX_TRADE" });
    a.send({ type: "ping", timestamp: 5 });
    await a.next((m) => m.type === "pong");
    b.send({ type: "ping", timestamp: 5 });
    await b.next((m) => m.type === "pong");
    expect(await publishToUser(env, alice.id, "FOREX_TRADE", { all_fact_profits: "12.50" })).toBe(1);
    expect(await a.next((m) => m.type === "FOREX_TRADE")).toEqual({ type: "FOREX_TRADE", data: { all_fact_profits: "12.50" } });
    b.send({ type: "ping", timestamp: 6 });
    await b.next((m) => m.type === "pong");
    await expect(b.next((m) => m.type === "FOREX_TRADE", 300)).rejects.toThrow();
    a.ws.close();
    b.ws.close();
  });

  it("refuses a plain GET of /v2/ws", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v2/ws`, { headers: { host: "localhost" } });
    expect(res.status).toBe(426);
  });
});

describe("MarketRoom storage", () => {
  it("keeps its candles and prices across a restart of the room", async () => {
    const { abortAllDurableObjects } = await import("cloudflare:test");
    const room = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-restart"));
    const before = await room.klines("BTCUSDT", "1day", 300);
    const hourly = await room.klines("EURUSD", "60min", 300);
    await room.setPrice("SOLUSDT", 123.45);
    await abortAllDurableObjects();
    const again = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-restart"));
    const after = await again.klines("BTCUSDT", "1day", 300);
    expect(after!.slice(0, -1)).toEqual(before!.slice(0, -1));
    expect((await again.klines("EURUSD", "60min", 300))!.slice(0, -2)).toEqual(hourly!.slice(0, -2));
    // a fresh room would not know the held price: this one reloaded its state
    expect((await again.snapshot()).quotes.find((q) => q.Code === "SOLUSDT")!.Close).toBe(123.45);
  });
});
