import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("MarketRoom upstream feeds (one upstream connection per room)", () => {
  it("takes prices from an upstream speaking the spec §4 protocol", async () => {
    const room = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-spec-upstream"));
    await room.useFeed({ kind: "upstream", url: `ws://127.0.0.1:${inject("specUpstreamPort")}` });
    const snap = await until(
      () => room.snapshot(),
      (s) => s.quotes.find((q) => q.Code === "BTCUSDT")?.Close === 61234.56,
    );
    const btc = snap.quotes.find((q) => q.Code === "BTCUSDT")!;
    expect(btc).toMatchObject({ Open: 60000, High: 62000, Low: 59000, Volume: 321 });
    expect(snap.stale).toBe(false);
    // many readers, still one upstream connection
    await Promise.all(Array.from({ length: 20 }, () => room.snapshot()));
    expect(await room.upstreamConnections()).toBe(1);
  });

  it("takes prices from a Binance-style stream", async () => {
    const room = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-binance-upstream"));
    await room.useFeed({ kind: "binance", url: `ws://127.0.0.1:${inject("binanceUpstreamPort")}` });
    const snap = await until(
      () => room.snapshot(),
      (s) => s.quotes.find((q) => q.Code === "ETHUSDT")?.Close === 3210.99,
    );
    expect(snap.quotes.find((q) => q.Code === "ETHUSDT")).toMatchObject({ Open: 3000, Change: 7.03 });
  });

  it("marks its data stale when the upstream cannot be reached", async () => {
    const room = env.MARKET_ROOM.get(env.MARKET_ROOM.idFromName("test-down-upstream"));
    await room.useFeed({ kind: "upstream", url: "ws://127.0.0.1:9" });
    const snap = await until(
      () => room.snapshot(),
      (s) => s.stale === true,
    );
    expect(snap.stale).toBe(true);
  });
});
