/**
 * MarketRoom: owns prices. One per market feed ("main"), reachable only by RPC (it accepts no
 * sockets and answers no HTTP). It is put together from:
 *   - the price book (party/market/book.ts): prices, candles, ranges since the previous tick;
 *   - the clock (party/market/clock.ts): the 1 s alarm, the idle rule, restarts;
 *   - the engine hook (party/market/engine.ts): called on each tick with the crossed ranges;
 *   - the publisher (party/market/publisher.ts): batched fan-out to the LiveRoom shards;
 *   - the feed: the simulated market by default, or an upstream socket (party/market/feeds.ts).
 */
import { Server, type Connection } from "partyserver";
import type { EngineChange, ParkedSettlement, TickInput } from "~/domain/engine";
import { MARKET_ROOM } from "~/domain/rooms";
import { isPeriod, type Candle, type Period, type Quote } from "~/domain/market";
import { PriceBook } from "./market/book";
import { Clock } from "./market/clock";
import { ContractEngine } from "./market/engine";
import { ShardedEngine } from "./market/shards";
import { engineStore } from "./market/store";
import { parsePlan } from "~/domain/engine-shards";
import { BinanceFeed, SpecProtocolFeed, type Connect, type UpstreamFeed } from "./market/feeds";
import { Publisher } from "./market/publisher";
import { services } from "./services";

const DEFAULT_SEED = 20_261_122;

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

interface Parts {
  book: PriceBook;
  clock: Clock;
  /** The main room's engine is spread over EngineShard objects; other rooms (tests) index what they are told. */
  engine: ContractEngine | ShardedEngine;
}

export class MarketRoom extends Server<Env> {
  static override options = { hibernate: true };

  private parts: Parts | null = null;
  private init: Promise<Parts> | null = null;
  private feed: UpstreamFeed | null = null;
  private readonly publisher = new Publisher(this.env);

  private get storageSql() {
    return this.ctx.storage.sql;
  }

  /**
   * Builds the room once per instance: book from storage (or fresh), engine, clock. Every call
   * awaits this. The book is made under blockConcurrencyWhile; the engine's load (its shards read
   * their open orders page by page) is not, as at a million orders it can take longer than the
   * 30 s the runtime allows that call.
   */
  private ready(): Promise<Parts> {
    if (this.parts) return Promise.resolve(this.parts);
    this.init ??= this.build();
    // A failed start (e.g. D1 not migrated yet) is retried by the next call, not remembered.
    this.init.catch(() => {
      this.init = null;
    });
    return this.init;
  }

  private async build(): Promise<Parts> {
    const { book, engine } = await this.ctx.blockConcurrencyWhile(async () => {
      const app = services();
      const instruments = await app.simInstruments(await app.createServiceContext(this.env));
      PriceBook.ensureTables(this.storageSql);
      const feed = this.feedConfig();
      const book = PriceBook.open(this.storageSql, instruments, {
        seed: Number(this.env.MARKET_SEED ?? DEFAULT_SEED) >>> 0,
        now: Date.now(),
        // An upstream feed brings real prices: no simulated history is made up for them.
        history: feed.kind === "sim",
      });
      const engine = this.isMain()
        ? new ShardedEngine(
            engineStore(this.env),
            (name) => this.env.ENGINE_SHARD.get(this.env.ENGINE_SHARD.idFromName(name)),
            parsePlan(this.env.ENGINE_SHARDS, this.env.ENGINE_SPLIT),
            instruments.map((i) => i.code),
          )
        : new ContractEngine(null);
      return { book, engine };
    });
    await engine.load();
    const clock = new Clock({
      storage: this.ctx.storage,
      book,
      engine,
      publisher: this.publisher,
      stale: () => this.feed?.isStale() ?? false,
    });
    this.parts = { book, clock, engine };
    this.startFeed(book);
    engine.feed = this.feedKind;
    // After a restart the clock resumes by itself when work waits.
    if (engine.hasWork()) await clock.ensureRunning();
    return this.parts;
  }

  /**
   * Only the main room settles orders in D1 (other rooms exist in tests and index what they are
   * told). Decided by the id, not the name: a room woken by its own alarm after a restart has no
   * name yet (ctx.id.name is undefined then, and partyserver only learns it from a named call),
   * and deciding "not main" there left the engine without D1 for the room's whole life.
   */
  private isMain() {
    return this.ctx.id.equals(this.env.MARKET_ROOM.idFromName(MARKET_ROOM));
  }

  override async onStart() {
    await this.ready();
  }

  /** The feed of this room: a local override (tests, local runs) or MARKET_FEED. */
  private feedConfig(): { kind: FeedKind; url: string; token?: string } {
    PriceBook.ensureTables(this.storageSql);
    const override = PriceBook.meta(this.storageSql, "feed");
    if (override) return JSON.parse(override);
    const kind = (this.env.MARKET_FEED ?? "sim") as FeedKind;
    return {
      kind: kind === "upstream" || kind === "binance" ? kind : "sim",
      url: this.env.MARKET_UPSTREAM_URL ?? "",
      token: this.env.MARKET_UPSTREAM_TOKEN,
    };
  }

  /** The kind of feed prices come from (on every option's receipt). */
  private feedKind: FeedKind = "sim";

  private startFeed(book: PriceBook) {
    const config = this.feedConfig();
    this.feedKind = config.kind;
    if (this.parts) this.parts.engine.feed = config.kind;
    this.feed?.stop();
    this.feed = null;
    const market = book.market;
    market.mode = config.kind === "sim" ? "sim" : "external";
    if (config.kind === "sim" || !config.url) return;
    const Feed = config.kind === "binance" ? BinanceFeed : SpecProtocolFeed;
    this.feed = new Feed({
      url: config.url,
      token: config.token,
      codes: market.instruments().map((i) => i.code),
      connect: workerdConnect,
      events: {
        quote: (code, q) => market.setExternal(code, q),
        candle: (code, period, candle) => market.applyUpstreamCandle(code, period, candle),
        status: () => {},
      },
    });
    this.feed.start();
  }

  override async onAlarm() {
    const { clock } = await this.ready();
    await clock.onAlarm(Date.now());
  }

  /** Not a public room: sockets belong to LiveRoom (/v2/ws). */
  override onConnect(connection: Connection) {
    connection.close(1008, "not found");
  }

  override onRequest(): Response {
    return new Response("Not found", { status: 404 });
  }

  // ---- RPC (the Worker, services and LiveRoom shards) ----

  /** A LiveRoom shard with subscribers asks for ticks (again every 30 s; entries expire). */
  async register(shard: string) {
    const { clock } = await this.ready();
    this.publisher.register(shard);
    await clock.ensureRunning();
  }

  async unregister(shard: string) {
    this.publisher.unregister(shard);
  }

  /** Quotes as of the last tick (a stopped clock ticks first). Reads never move prices themselves. */
  async snapshot(): Promise<MarketSnapshot> {
    const { book, clock } = await this.ready();
    await clock.beforeRead();
    return { time: clock.lastTick, stale: this.feed?.isStale() ?? false, quotes: book.quotes(clock.lastTick) };
  }

  /** Quotes by code as of one tick, built once per tick (every order reads one). */
  private quoteCache: { time: number; byCode: Map<string, Quote> } | null = null;

  /** One instrument's quote as of the last tick (the order path needs one price, not all). */
  async quote(code: string): Promise<{ quote: Quote | null; stale: boolean; feed: string }> {
    const { book, clock } = await this.ready();
    await clock.beforeRead();
    if (this.quoteCache?.time !== clock.lastTick) {
      this.quoteCache = { time: clock.lastTick, byCode: new Map(book.quotes(clock.lastTick).map((q) => [q.Code, q])) };
    }
    return { quote: this.quoteCache.byCode.get(code) ?? null, stale: this.feed?.isStale() ?? false, feed: this.feedKind };
  }

  async klines(code: string, period: Period, limit = 300): Promise<Candle[] | null> {
    if (!isPeriod(period)) return null;
    const { book, clock } = await this.ready();
    await clock.beforeRead();
    return book.candles(code, period, Math.max(1, Math.min(500, limit)));
  }

  /** Services report committed trigger changes (placed, modified, closed, cancelled). */
  async triggersChanged(changes: EngineChange[]) {
    const { engine, clock } = await this.ready();
    await engine.apply(changes);
    if (engine.copyWorkWaiting()) await clock.soon();
    else if (engine.hasWork()) await clock.ensureRunning();
    return engine.pending();
  }

  /** The periodic job's nudge: the clock runs whenever work waits. Answers whether it does. */
  async wake() {
    const { engine, clock } = await this.ready();
    if (engine.hasWork()) await clock.ensureRunning();
    return engine.hasWork();
  }

  /** Scripted mode (local only, guarded by the Worker): hold a price, or release with null. */
  async setPrice(code: string, price: number | null): Promise<boolean> {
    const { book, clock } = await this.ready();
    const ok = book.hold(code, price);
    // A held price is the price from now on, not from the next tick: the order path's cache goes.
    this.quoteCache = null;
    await clock.ensureRunning();
    return ok;
  }

  private localOnly() {
    if (this.env.ENVIRONMENT !== "local") throw new Error("local runs and tests only");
  }

  /** Local runs and tests only (the Worker never exposes it): switch this room's feed. */
  async useFeed(config: { kind: FeedKind; url: string; token?: string }) {
    this.localOnly();
    const { book, clock } = await this.ready();
    PriceBook.setMeta(this.storageSql, "feed", JSON.stringify(config));
    this.startFeed(book);
    await clock.ensureRunning();
    return true;
  }

  /** How many upstream connections this room has opened (one per room, whatever the browsers). */
  async upstreamConnections() {
    await this.ready();
    return this.feed?.connections ?? 0;
  }

  /** Local runs and tests only: the last ticks the engine saw, and the clock's state. */
  async engineView(): Promise<{
    ticks: TickInput[];
    pending: number;
    triggers: number;
    lastTick: number;
    alarm: number | null;
    running: boolean;
    timings: { orders: number; ms: number; kind?: string; shard?: string }[];
    parked: ParkedSettlement[];
    shards: { name: string; pending: number; triggers: number }[];
  }> {
    this.localOnly();
    const { engine, clock } = await this.ready();
    const details =
      engine instanceof ShardedEngine ? await engine.details() : { timings: engine.timings, parked: engine.parked, shards: [] };
    return {
      ticks: engine.recent,
      pending: engine.pending(),
      triggers: engine.triggers(),
      lastTick: clock.lastTick,
      alarm: await this.ctx.storage.getAlarm(),
      running: clock.shouldRun(),
      ...details,
    };
  }

  /** Local runs and tests only: re-read open orders from D1 now (as the periodic reconcile does). */
  async reconcileNow() {
    this.localOnly();
    const { engine } = await this.ready();
    await engine.reconcile();
    return engine.pending();
  }

  /** Local runs and tests only: run one tick now (as the alarm would). */
  async tickNow(now = Date.now()) {
    this.localOnly();
    const { clock } = await this.ready();
    await clock.onAlarm(now);
    return clock.lastTick;
  }

  /**
   * Local runs and tests only: answers at once and does nothing. The benchmark calls it every
   * 5 ms during a cascade; its latency minus the idle latency is how long the room's JavaScript
   * held the thread.
   */
  async ping() {
    this.localOnly();
    return Date.now();
  }

  /**
   * Tests only: stop the clock (no alarm) and wait for the tick in flight, so nothing of this
   * room still runs when the test pool aborts every object at the end of a file.
   */
  async quiesce() {
    this.localOnly();
    await this.ctx.storage.deleteAlarm();
    if (this.parts) await this.parts.clock.stop();
  }

  /** Local runs and tests only: forget the last read, so the idle rule can be observed. */
  async forgetReads() {
    this.localOnly();
    const { clock } = await this.ready();
    clock.lastRead = 0;
  }
}
