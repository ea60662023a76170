// Upstream feed adapters against local servers speaking each protocol.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { BinanceFeed, SpecProtocolFeed, type Connect, type FeedEvents } from "../../party/market/feeds";
import type { Candle } from "~/domain/market";

const connect: Connect = (url, on) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on("message", (data) => on.message(String(data)));
    ws.on("close", () => on.close());
    ws.once("open", () => resolve(ws));
    ws.once("error", (e) => {
      reject(e);
      on.close();
    });
  });

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function recorder() {
  const quotes: { code: string; price: number; open?: number }[] = [];
  const candles: { code: string; period: string; candle: Candle }[] = [];
  const statuses: boolean[] = [];
  const events: FeedEvents = {
    quote: (code, q) => quotes.push({ code, price: q.price, open: q.open }),
    candle: (code, period, candle) => candles.push({ code, period, candle }),
    status: (s) => statuses.push(s),
  };
  return { quotes, candles, statuses, events };
}

const until = async (check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

function specServer(port = 0, options: { pong?: () => boolean } = {}) {
  const received: Record<string, unknown>[] = [];
  const server = new WebSocketServer({ port });
  server.on("connection", (ws) => {
    ws.on("message", (raw) => {
      const m = JSON.parse(String(raw));
      received.push(m);
      if (m.type === "ping" && (options.pong?.() ?? true)) ws.send(JSON.stringify({ type: "pong", timestamp: m.timestamp }));
      if (m.type === "sub" && m.topic === "DAY_MARKET") {
        ws.send(
          JSON.stringify({
            type: "DAY_MARKET",
            data: [
              {
                Id: 1,
                Code: "BTCUSDT",
                ShowCode: "BTC/USDT",
                Open: 66000,
                Close: 67001.5,
                High: 68000,
                Low: 65000,
                Change: 1.5,
                Volume: 12,
                MarketStatus: 1,
                time: Date.now(),
              },
              { Code: "NOTOURS", Close: 1 },
            ],
          }),
        );
      }
      if (m.type === "sub" && m.topic === "KLINE.BTCUSDT") {
        ws.send(
          JSON.stringify({
            type: "KLINE.BTCUSDT",
            data: { timestamp: 1_700_000_040_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 3, period: "1min" },
          }),
        );
      }
    });
  });
  cleanups.push(() => server.close());
  return { server, received, port: () => (server.address() as { port: number }).port };
}

describe("upstream feed: spec §4 protocol", () => {
  it("logs in, subscribes DAY_MARKET and KLINE per code, and turns messages into quotes and candles", async () => {
    const s = specServer();
    const r = recorder();
    const feed = new SpecProtocolFeed({
      url: `ws://127.0.0.1:${s.port()}`,
      codes: ["BTCUSDT"],
      token: "secret",
      connect,
      events: r.events,
      pingIntervalMs: 50,
    });
    cleanups.push(() => feed.stop());
    feed.start();
    await until(() => r.quotes.length > 0 && r.candles.length > 0);
    expect(s.received.slice(0, 3)).toEqual([
      { type: "login", token: "secret" },
      { type: "sub", topic: "DAY_MARKET" },
      { type: "sub", topic: "KLINE.BTCUSDT", period: "1min" },
    ]);
    expect(r.quotes).toEqual([{ code: "BTCUSDT", price: 67001.5, open: 66000 }]);
    expect(r.candles[0]).toMatchObject({ code: "BTCUSDT", period: "1min", candle: { timestamp: 1_700_000_040_000, close: 1.5 } });
    await until(() => s.received.some((m) => m.type === "ping"));
    expect(feed.isStale()).toBe(false);
  });

  it("reconnects when pongs stop coming", async () => {
    let pong = false;
    const s = specServer(0, { pong: () => pong });
    const r = recorder();
    const feed = new SpecProtocolFeed({
      url: `ws://127.0.0.1:${s.port()}`,
      codes: ["BTCUSDT"],
      connect,
      events: r.events,
      pingIntervalMs: 30,
      minBackoffMs: 10,
    });
    cleanups.push(() => feed.stop());
    feed.start();
    await until(() => feed.connections >= 2, 15_000);
    pong = true;
    expect(s.received.filter((m) => m.type === "sub" && m.topic === "DAY_MARKET").length).toBeGreaterThanOrEqual(2);
  });

  it("marks data stale while the upstream is down and reconnects with backoff when it returns", async () => {
    const first = specServer();
    const port = first.port();
    const r = recorder();
    const feed = new SpecProtocolFeed({
      url: `ws://127.0.0.1:${port}`,
      codes: ["BTCUSDT"],
      connect,
      events: r.events,
      pingIntervalMs: 30,
      minBackoffMs: 20,
      maxBackoffMs: 100,
    });
    cleanups.push(() => feed.stop());
    feed.start();
    await until(() => feed.connected);
    for (const client of first.server.clients) client.terminate();
    first.server.close();
    await until(() => !feed.connected);
    expect(feed.isStale()).toBe(true);
    await new Promise((res) => setTimeout(res, 150));
    const second = specServer(port);
    await until(() => feed.connected && second.received.length > 0, 5000);
    expect(feed.isStale()).toBe(false);
    expect(r.statuses).toContain(false);
  });
});

describe("upstream feed: Binance-style stream", () => {
  it("asks for ticker and kline streams and maps their events", async () => {
    let path = "";
    const server = new WebSocketServer({ port: 0 });
    cleanups.push(() => server.close());
    server.on("connection", (ws, req) => {
      path = req.url ?? "";
      ws.send(
        JSON.stringify({
          stream: "btcusdt@ticker",
          data: {
            e: "24hrTicker",
            E: 1_700_000_000_000,
            s: "BTCUSDT",
            o: "66000.00",
            h: "68000.00",
            l: "65000.00",
            c: "67123.45",
            v: "1234.5",
          },
        }),
      );
      ws.send(
        JSON.stringify({
          stream: "btcusdt@kline_1m",
          data: {
            e: "kline",
            E: 1,
            s: "BTCUSDT",
            k: {
              t: 1_700_000_040_000,
              T: 1_700_000_099_999,
              s: "BTCUSDT",
              i: "1m",
              o: "67000",
              c: "67123.45",
              h: "67200",
              l: "66950",
              v: "12.5",
              x: false,
            },
          },
        }),
      );
      ws.send(JSON.stringify({ stream: "ethusdt@ticker", data: { e: "24hrTicker", s: "DOGEUSDT", c: "1" } }));
      ws.send("not json");
    });
    const r = recorder();
    const feed = new BinanceFeed({
      url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
      codes: ["BTCUSDT", "ETHUSDT"],
      connect,
      events: r.events,
      pingIntervalMs: 1000,
    });
    cleanups.push(() => feed.stop());
    feed.start();
    await until(() => r.quotes.length > 0 && r.candles.length > 0);
    expect(path).toBe("/stream?streams=btcusdt@ticker/btcusdt@kline_1m/ethusdt@ticker/ethusdt@kline_1m");
    expect(r.quotes).toEqual([{ code: "BTCUSDT", price: 67123.45, open: 66000 }]);
    expect(r.candles[0]).toEqual({
      code: "BTCUSDT",
      period: "1min",
      candle: { timestamp: 1_700_000_040_000, open: 67000, high: 67200, low: 66950, close: 67123.45, volume: 12.5 },
    });
  });
});
