/**
 * MarketRoom: owns prices. One per market feed ("main"). It runs the feed (the simulated market
 * by default; upstream sources arrive by configuration), keeps candles for every period in its
 * own SQLite storage (kept across restarts), ticks once a second on an alarm, and pushes each
 * tick once to every LiveRoom shard that has subscribers. Screens and the JSON API read
 * snapshots from it over RPC.
 */
import { Server, getServerByName } from "partyserver";
import { PERIODS, SimMarket, isPeriod, type Candle, type Period, type Quote, type SimInstrument } from "./market/sim";
import type { SessionKind } from "./market/time";
import type { TickPayload } from "./protocol";
import { BinanceFeed, SpecProtocolFeed, type Connect, type UpstreamFeed } from "./market/feeds";
import { MARKET_ROOM } from "./names";

const TICK_MS = 1000;
const PERSIST_EVERY_MS = 10_000;
/** With no shard listening for this long, the room stops its clock (it catches up on the next read). */
const IDLE_STOP_MS = 60_000;
const DEFAULT_SEED = 20_261_122;
/** Shards renew their registration every 30 s while they have subscribers. */
const SHARD_TTL_MS = 120_000;

interface InstrumentRow {
  id: number;
  code: string;
  showCode: string;
  precision: number;
  basePrice: string;
  annualVolatility: string;
  kind: SessionKind;
}

/** Outgoing WebSocket from workerd: fetch with Upgrade, listeners attached before accept(). */
const workerdConnect: Connect = async (url, on) => {
  const response = await fetch(url.replace(/^ws(s?):/, "http$1:"), { headers: { Upgrade: "websocket" } });
  const ws = response.webSocket;
  if (!ws) throw new Error(`upstream answered ${response.status}`);
  ws.addEventListener("message", (e) => on.message(e.data));
  ws.addEventListener("close", () => on.close());
  ws.addEventListener("error", () => on.close());
  ws.accept();
  return ws;
};

export type FeedKind = "sim" | "upstream" | "binance";

export interface MarketSnapshot {
  time: number;
  stale: boolean;
  quotes: Quote[];
}

export class MarketRoom extends Server<Env> {
  static override options = { hibernate: true };

  private sim: SimMarket | null = null;
  private feed: UpstreamFeed | null = null;
  private init: Promise<SimMarket> | null = null;
  private shards = new Map<string, number>();
  private lastPersist = 0;
  private lastRead = 0;

  private storage() {
    return this.ctx.storage.sql;
  }

  private ensureTables() {
    const sql = this.storage();
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS candles (code TEXT NOT NULL, period TEXT NOT NULL, ts INTEGER NOT NULL, o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL, c REAL NOT NULL, v REAL NOT NULL, PRIMARY KEY (code, period, ts))",
    );
  }

  private meta(key: string): string | null {
    const row = this.storage().exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row?.value ?? null;
  }

  private setMeta(key: string, value: string) {
    this.storage().exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
  }

  private async loadInstruments(): Promise<SimInstrument[]> {
    const { results } = await this.env.DB.prepare(
      `SELECT id, code, show_code AS showCode, price_precision AS precision, base_price AS basePrice,
              annual_volatility AS annualVolatility, session_kind AS kind
         FROM instruments WHERE status = 1 ORDER BY sort, id`,
    ).all<InstrumentRow>();
    return results.map((r) => ({
      id: r.id,
      code: r.code,
      showCode: r.showCode,
      precision: r.precision,
      basePrice: Number(r.basePrice),
      annualVolatility: Number(r.annualVolatility),
      kind: r.kind,
    }));
  }

  /** Builds the market once per instance: from storage after a restart, else from a fresh start. */
  private ready(): Promise<SimMarket> {
    if (this.sim) return Promise.resolve(this.sim);
    this.init ??= this.ctx.blockConcurrencyWhile(async () => {
      this.ensureTables();
      const instruments = await this.loadInstruments();
      const startMs = Number(this.meta("start") ?? NaN);
      let sim: SimMarket;
      if (Number.isFinite(startMs)) {
        sim = new SimMarket(instruments, {
          seed: Number(this.meta("seed")),
          startMs,
          clock: Number(this.meta("clock")),
          prices: JSON.parse(this.meta("prices") ?? "{}"),
        });
        const rows = this.storage().exec<{ code: string; period: string; ts: number; o: number; h: number; l: number; c: number; v: number }>("SELECT code, period, ts, o, h, l, c, v FROM candles ORDER BY code, period, ts").toArray();
        const grouped = new Map<string, Candle[]>();
        for (const r of rows) {
          const key = `${r.code}|${r.period}`;
          let list = grouped.get(key);
          if (!list) grouped.set(key, (list = []));
          list.push({ timestamp: r.ts, open: r.o, high: r.h, low: r.l, close: r.c, volume: r.v });
        }
        for (const [key, list] of grouped) {
          const [code, period] = key.split("|") as [string, string];
          if (isPeriod(period)) sim.loadCandles(code, period, list);
        }
        const held = JSON.parse(this.meta("held") ?? "{}") as Record<string, number>;
        for (const [code, price] of Object.entries(held)) sim.setHeldPrice(code, price);
      } else {
        const seed = Number(this.env.MARKET_SEED ?? DEFAULT_SEED) >>> 0;
        sim = new SimMarket(instruments, { seed, startMs: Date.now() });
        // An upstream feed brings real prices: no simulated history is made up for them.
        if (this.feedConfig().kind === "sim") sim.generateHistory();
        this.setMeta("seed", String(sim.seed));
        this.setMeta("start", String(sim.startMs));
        this.persistAll(sim);
      }
      this.sim = sim;
      this.startFeed(sim);
      return sim;
    });
    // A failed start (e.g. D1 not migrated yet) is retried by the next call, not remembered.
    this.init.catch(() => {
      this.init = null;
    });
    return this.init;
  }

  /** The feed of this room: a local override (tests, local runs) or MARKET_FEED. */
  private feedConfig(): { kind: FeedKind; url: string; token?: string } {
    const override = this.meta("feed");
    if (override) return JSON.parse(override);
    const kind = (this.env.MARKET_FEED ?? "sim") as FeedKind;
    return { kind: kind === "upstream" || kind === "binance" ? kind : "sim", url: this.env.MARKET_UPSTREAM_URL ?? "", token: this.env.MARKET_UPSTREAM_TOKEN };
  }

  private startFeed(sim: SimMarket) {
    const config = this.feedConfig();
    this.feed?.stop();
    this.feed = null;
    sim.mode = config.kind === "sim" ? "sim" : "external";
    if (config.kind === "sim" || !config.url) return;
    const Feed = config.kind === "binance" ? BinanceFeed : SpecProtocolFeed;
    this.feed = new Feed({
      url: config.url,
      token: config.token,
      codes: sim.instruments().map((i) => i.code),
      connect: workerdConnect,
      events: {
        quote: (code, q) => sim.setExternal(code, q),
        candle: (code, period, candle) => sim.applyUpstreamCandle(code, period, candle),
        status: () => {},
      },
    });
    this.feed.start();
  }

  private stale() {
    return this.feed ? this.feed.isStale() : false;
  }

  private persistAll(sim: SimMarket) {
    const sql = this.storage();
    sql.exec("DELETE FROM candles");
    for (const def of sim.instruments()) {
      for (const p of PERIODS) {
        for (const c of sim.candles(def.code, p)) {
          sql.exec("INSERT INTO candles (code, period, ts, o, h, l, c, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", def.code, p, c.timestamp, c.open, c.high, c.low, c.close, c.volume);
        }
      }
    }
    this.persistState(sim);
  }

  /** Saves the clock, prices and the latest candles (the only ones a tick changes). */
  private persistState(sim: SimMarket) {
    const sql = this.storage();
    for (const def of sim.instruments()) {
      for (const p of PERIODS) {
        for (const c of sim.candles(def.code, p, 2)) {
          sql.exec(
            "INSERT INTO candles (code, period, ts, o, h, l, c, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(code, period, ts) DO UPDATE SET o = excluded.o, h = excluded.h, l = excluded.l, c = excluded.c, v = excluded.v",
            def.code, p, c.timestamp, c.open, c.high, c.low, c.close, c.volume,
          );
        }
      }
    }
    this.setMeta("clock", String(sim.clock));
    this.setMeta("prices", JSON.stringify(sim.prices()));
    this.setMeta("held", JSON.stringify(sim.heldPrices()));
    this.lastPersist = Date.now();
  }

  private async catchUp(now = Date.now()) {
    const sim = await this.ready();
    sim.advanceTo(now);
    if (now - this.lastPersist >= PERSIST_EVERY_MS) this.persistState(sim);
    return sim;
  }

  private async ensureClock() {
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null) await this.ctx.storage.setAlarm(Date.now() + TICK_MS);
  }

  override async onAlarm() {
    const now = Date.now();
    const sim = await this.catchUp(now);
    const payload = this.tickPayload(sim, now);
    for (const [name, seen] of this.shards) if (now - seen > SHARD_TTL_MS) this.shards.delete(name);
    const listening = [...this.shards.keys()];
    await Promise.allSettled(
      listening.map(async (name) => {
        const shard = await getServerByName(this.env.LIVE_ROOM, name);
        await shard.receiveTick(payload);
      }),
    );
    const active = listening.length > 0 || now - this.lastRead < IDLE_STOP_MS;
    if (active) await this.ctx.storage.setAlarm(Math.ceil((now + 1) / TICK_MS) * TICK_MS);
    else this.persistState(sim);
  }

  private tickPayload(sim: SimMarket, now: number): TickPayload {
    const candles: TickPayload["candles"] = {};
    for (const def of sim.instruments()) {
      const entry: Partial<Record<Period, Candle>> = {};
      for (const p of PERIODS) {
        const c = sim.lastCandle(def.code, p);
        if (c) entry[p] = c;
      }
      candles[def.code] = entry;
    }
    return { time: now, stale: this.stale(), quotes: sim.quotes(now), candles };
  }

  // ---- RPC (called by the Worker, the JSON API and LiveRoom shards) ----

  /** A LiveRoom shard with subscribers asks for ticks (again every minute; entries expire). */
  async register(shard: string) {
    this.shards.set(shard, Date.now());
    await this.ready();
    await this.ensureClock();
  }

  async unregister(shard: string) {
    this.shards.delete(shard);
  }

  async snapshot(): Promise<MarketSnapshot> {
    const now = Date.now();
    this.lastRead = now;
    const sim = await this.catchUp(now);
    await this.ensureClock();
    return { time: now, stale: this.stale(), quotes: sim.quotes(now) };
  }

  async klines(code: string, period: Period, limit = 300): Promise<Candle[] | null> {
    if (!isPeriod(period)) return null;
    const sim = await this.catchUp();
    if (!sim.has(code)) return null;
    return sim.candles(code, period, Math.max(1, Math.min(500, limit)));
  }

  /** Scripted mode (local only, guarded by the Worker): hold a price, or release with null. */
  async setPrice(code: string, price: number | null): Promise<boolean> {
    const sim = await this.catchUp();
    const ok = sim.setHeldPrice(code, price);
    if (ok) this.persistState(sim);
    await this.ensureClock();
    return ok;
  }

  /** Local runs and tests only (the Worker never exposes it): switch this room's feed. */
  async useFeed(config: { kind: FeedKind; url: string; token?: string }) {
    if (this.env.ENVIRONMENT !== "local") throw new Error("feeds are configured with MARKET_FEED in production");
    const sim = await this.ready();
    this.setMeta("feed", JSON.stringify(config));
    this.startFeed(sim);
    await this.ensureClock();
    return true;
  }

  /** How many upstream connections this room has opened (one per room, whatever the browsers). */
  async upstreamConnections() {
    await this.ready();
    return this.feed?.connections ?? 0;
  }

  override onRequest(): Response {
    return new Response("Not found", { status: 404 });
  }
}

export async function marketRoom(env: Env) {
  return getServerByName(env.MARKET_ROOM, MARKET_ROOM);
}
