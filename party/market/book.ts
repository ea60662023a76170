/**
 * The price book: current prices, candles of every period and, per instrument, the range of
 * prices produced since the previous tick. It wraps the simulated market (which also carries
 * upstream prices in external mode) and is written only by the clock (`advance`) and by the feed
 * (upstream quotes, held prices); readers get copies. Candles and state persist in the room's
 * SQLite storage, so a restart resumes where the room stopped.
 */
import { widen, type PriceRange } from "~/domain/engine";
import { PERIODS, PERIOD_MS, isPeriod, type Candle, type Period, type Quote } from "~/domain/market";
import { MAX_CANDLES, SimMarket, type SimInstrument } from "./sim";

const PERSIST_EVERY_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60_000;

export class PriceBook {
  private ranges = new Map<string, PriceRange>();
  private lastPersist = 0;
  private lastPrune = 0;

  private constructor(
    readonly market: SimMarket,
    private readonly sql: SqlStorage,
  ) {
    market.onPrice = (code, price) => this.ranges.set(code, widen(this.ranges.get(code), code, price));
  }

  static ensureTables(sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS candles (code TEXT NOT NULL, period TEXT NOT NULL, ts INTEGER NOT NULL, o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL, c REAL NOT NULL, v REAL NOT NULL, PRIMARY KEY (code, period, ts))",
    );
  }

  static meta(sql: SqlStorage, key: string): string | null {
    const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row?.value ?? null;
  }

  static setMeta(sql: SqlStorage, key: string, value: string) {
    sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
  }

  /**
   * The book of this room: restored from storage after a restart, else started fresh at `now`
   * (with simulated history when `history` is set).
   */
  static open(sql: SqlStorage, instruments: SimInstrument[], options: { seed: number; now: number; history: boolean }): PriceBook {
    PriceBook.ensureTables(sql);
    const startMs = Number(PriceBook.meta(sql, "start") ?? NaN);
    if (!Number.isFinite(startMs)) {
      const market = new SimMarket(instruments, { seed: options.seed, startMs: options.now });
      if (options.history) market.generateHistory();
      PriceBook.setMeta(sql, "seed", String(market.seed));
      PriceBook.setMeta(sql, "start", String(market.startMs));
      const book = new PriceBook(market, sql);
      book.persistAll();
      return book;
    }
    const market = new SimMarket(instruments, {
      seed: Number(PriceBook.meta(sql, "seed")),
      startMs,
      clock: Number(PriceBook.meta(sql, "clock")),
      prices: JSON.parse(PriceBook.meta(sql, "prices") ?? "{}"),
    });
    const rows = sql
      .exec<{ code: string; period: string; ts: number; o: number; h: number; l: number; c: number; v: number }>(
        "SELECT code, period, ts, o, h, l, c, v FROM candles ORDER BY code, period, ts",
      )
      .toArray();
    const grouped = new Map<string, Candle[]>();
    for (const r of rows) {
      const key = `${r.code}|${r.period}`;
      let list = grouped.get(key);
      if (!list) grouped.set(key, (list = []));
      list.push({ timestamp: r.ts, open: r.o, high: r.h, low: r.l, close: r.c, volume: r.v });
    }
    for (const [key, list] of grouped) {
      const [code, period] = key.split("|") as [string, string];
      if (isPeriod(period)) market.loadCandles(code, period, list);
    }
    const held = JSON.parse(PriceBook.meta(sql, "held") ?? "{}") as Record<string, number>;
    for (const [code, price] of Object.entries(held)) market.setHeldPrice(code, price);
    return new PriceBook(market, sql);
  }

  /** The time of the last simulated second (ms). */
  get clock() {
    return this.market.clock;
  }

  /**
   * Advances the market to `now` (second by second) and hands over the ranges of every price
   * produced since the previous call (the clock calls this once per tick). Persists now and then.
   */
  advance(now: number): PriceRange[] {
    this.market.advanceTo(now);
    const ranges = [...this.ranges.values()];
    this.ranges = new Map();
    if (now - this.lastPersist >= PERSIST_EVERY_MS) this.persistState(now);
    return ranges;
  }

  quotes(now: number): Quote[] {
    return this.market.quotes(now);
  }

  candles(code: string, period: Period, limit: number): Candle[] | null {
    if (!this.market.has(code)) return null;
    return this.market.candles(code, period, limit);
  }

  lastCandles(): Record<string, Partial<Record<Period, Candle>>> {
    const out: Record<string, Partial<Record<Period, Candle>>> = {};
    for (const def of this.market.instruments()) {
      const entry: Partial<Record<Period, Candle>> = {};
      for (const p of PERIODS) {
        const c = this.market.lastCandle(def.code, p);
        if (c) entry[p] = c;
      }
      out[def.code] = entry;
    }
    return out;
  }

  /** Scripted mode: hold a price (the next tick prints it) or release it (null). */
  hold(code: string, price: number | null): boolean {
    const ok = this.market.setHeldPrice(code, price);
    if (ok) PriceBook.setMeta(this.sql, "held", JSON.stringify(this.market.heldPrices()));
    return ok;
  }

  private persistAll() {
    this.sql.exec("DELETE FROM candles");
    for (const def of this.market.instruments()) {
      for (const p of PERIODS) {
        for (const c of this.market.candles(def.code, p)) {
          this.sql.exec(
            "INSERT INTO candles (code, period, ts, o, h, l, c, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            def.code,
            p,
            c.timestamp,
            c.open,
            c.high,
            c.low,
            c.close,
            c.volume,
          );
        }
      }
    }
    this.persistState(Date.now());
  }

  /** Saves the clock, prices and the latest candles (the only ones a tick changes). */
  persistState(now: number) {
    for (const def of this.market.instruments()) {
      for (const p of PERIODS) {
        for (const c of this.market.candles(def.code, p, 2)) {
          this.sql.exec(
            "INSERT INTO candles (code, period, ts, o, h, l, c, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(code, period, ts) DO UPDATE SET o = excluded.o, h = excluded.h, l = excluded.l, c = excluded.c, v = excluded.v",
            def.code,
            p,
            c.timestamp,
            c.open,
            c.high,
            c.low,
            c.close,
            c.volume,
          );
        }
      }
    }
    // Once an hour, candles far older than the kept window leave storage too (3× the window in
    // calendar time still holds MAX_CANDLES open-market candles across weekends).
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      for (const p of PERIODS) this.sql.exec("DELETE FROM candles WHERE period = ? AND ts < ?", p, now - 3 * MAX_CANDLES * PERIOD_MS[p]);
      this.lastPrune = now;
    }
    PriceBook.setMeta(this.sql, "clock", String(this.market.clock));
    PriceBook.setMeta(this.sql, "prices", JSON.stringify(this.market.prices()));
    PriceBook.setMeta(this.sql, "held", JSON.stringify(this.market.heldPrices()));
    this.lastPersist = now;
  }
}
