/**
 * The contract between the market room's clock and the order engine (ARCHITECTURE.md, "The
 * engine"): what a tick tells the engine, what the engine answers, and how services tell the
 * room that a trigger changed after they committed. Pure types and helpers; no I/O.
 */
import type { UserTopic } from "./protocol";

/**
 * Every price an instrument traded at since the previous tick, as a range: the engine fires a
 * trigger when its level lies within [low, high]. `open` is the first of those prices and
 * `last` the current one. An instrument that produced no price since the previous tick is absent.
 */
export interface PriceRange {
  code: string;
  open: number;
  low: number;
  high: number;
  last: number;
}

export interface TickInput {
  /** Users with a socket subscribed to FOREX_TRADE (live profit is computed only for them). */
  watchers?: number[];
  /** The tick's time (ms); prices in the ranges were produced in (since, time]. */
  time: number;
  since: number;
  /** True when the room was away (idle, restarted) and the ranges span more than one second. */
  catchUp: boolean;
  ranges: PriceRange[];
}

/** A per-user push the room delivers after the engine's batch commits. */
export interface UserEvent {
  userId: number;
  topic: UserTopic;
  data: unknown;
}

export interface TickOutput {
  userEvents: UserEvent[];
}

/**
 * An open contract order as the engine indexes it (status 0 pending or 1 holding). Prices are
 * steps of 10^-precision, lots and units per lot 10^-6, money micros (app/domain/contract.ts).
 */
export interface EngineOrder {
  id: number;
  userId: number;
  code: string;
  side: 1 | 2;
  status: 0 | 1;
  lots: number;
  contractSize: number;
  precision: number;
  /** The fill price (holding) or the buy price (pending). */
  price: number;
  margin: number;
  fee: number;
  stopLoss: number;
  takeProfit: number;
  /** 0 = none. */
  liquidation: number;
  /** Pending orders: 1 fills on the way up, -1 on the way down. */
  pendingCrossing: number;
  /** When the row last changed (ms): an older copy never replaces a newer one. */
  updatedAt?: number;
  /** Copy trading: the trader's order this copy follows (null for own orders and copies let run). */
  originId?: number | null;
  /** Copy trading: the follow a copy belongs to (kept when it is let run). */
  followId?: number | null;
  /** Copy trading: the trader a copy follows (its order may sit on another engine shard). */
  traderId?: number;
}

/**
 * A committed change the services report: an order placed or modified, or one that left. A
 * removal may carry the close price (steps) of a position closed by hand, so a trader's copies
 * can close at it without reading it back, and its instrument and owner, so it goes only to the
 * engine shard holding it (without them it goes to every shard).
 */
export type EngineChange =
  { op: "upsert"; order: EngineOrder } | { op: "remove"; id: number; price?: number; code?: string; userId?: number };

/** What the engine settles in one tick (one set-based batch). Prices in steps, money in micros. */
export interface SettlementRequest {
  batchId: number;
  time: number;
  /** Positions leaving status 1 (stop-loss, take-profit, liquidation, delivery). */
  exits: { id: number; reason: string; price: number; profit: number }[];
  /** Pending orders filling at their buy price. */
  fills: { id: number; price: number }[];
  /** Pending orders cancelled by the server (delivery). */
  cancels: { id: number; reason: string }[];
  /** Delivery instruments rolling to their next delivery instant. */
  rolls: { instrumentId: number; from: number; to: number }[];
}

/** What the batch actually did (orders another path moved first are absent). */
export interface SettlementResult {
  exited: { id: number; userId: number; reason: string }[];
  filled: { id: number; userId: number }[];
  cancelled: { id: number; userId: number }[];
}

/** Delivery contracts as the engine sees them. */
export interface DeliverySchedule {
  instrumentId: number;
  code: string;
  days: number;
  /** The next delivery instant (ms). */
  at: number;
}

/** Merges a price into a range (or starts one). */
export function widen(range: PriceRange | undefined, code: string, price: number): PriceRange {
  if (!range) return { code, open: price, low: price, high: price, last: price };
  range.low = Math.min(range.low, price);
  range.high = Math.max(range.high, price);
  range.last = price;
  return range;
}

/** An open timed option as the engine indexes it (by expiry instant). */
export interface EngineOption {
  id: number;
  userId: number;
  code: string;
  direction: 1 | 2;
  amount: number;
  profitRatio: string;
  lossLevel: number;
  precision: number;
  openPrice: number;
  expiresAt: number;
  updatedAt?: number;
}

/** The options due in one tick, settled in one set-based batch. */
export interface OptionSettlementRequest {
  batchId: number;
  time: number;
  items: {
    id: number;
    userId: number;
    endPrice: number;
    endTickAt: number;
    endFeed: string;
    late: boolean;
    profit: number;
    payout: number;
  }[];
}

export interface OptionSettlementResult {
  settled: { id: number; userId: number; profit: number }[];
}

/**
 * Set-based batches stay well inside D1's limits (a bound string at most 2,000,000 bytes, a
 * statement at most 100 KB, one writer for the whole database): the engine settles at most this
 * many items per batch (an item's JSON is about 100 bytes, so a chunk binds about 200 KB), each
 * chunk its own batch that releases the writer before the next.
 */
export const SETTLE_CHUNK = 2_000;

/**
 * The settlement chunk from configuration (ENGINE_SETTLE_CHUNK, 50 to 2,000; SETTLE_CHUNK when
 * empty). A smaller chunk makes each D1 batch shorter, so a long cascade releases the database
 * (and, on local D1, the thread it shares with the rooms) more often, at the cost of more batches.
 */
export function settleChunkOf(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return SETTLE_CHUNK;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 50 || n > SETTLE_CHUNK)
    throw new Error(`ENGINE_SETTLE_CHUNK must be a whole number from 50 to ${SETTLE_CHUNK}`);
  return n;
}
/** A decision whose batch failed alone is tried again on this many ticks in all, then parked. */
export const SETTLE_TRIES = 3;

/** Splits a list into consecutive chunks of at most `size` items (none for an empty list). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A settlement the engine gave up on after its tries: kept for an operator, never retried by itself. */
export interface ParkedSettlement {
  /** contract: an order's exit, fill or cancel; option: an option's settlement. */
  kind: "contract" | "option";
  id: number;
  userId: number;
  /** What the engine was doing (stop_loss, liquidation, fill, expiry…). */
  reason: string;
  /** The price it would have settled at (steps). */
  price: number;
  tries: number;
  /** The database's error, for the operator (never shown to users). */
  error: string;
  at: number;
}

/** The engine loads open orders and options at start in pages of this many rows (by id). */
export const LOAD_PAGE = 5_000;

/**
 * What the market room hands one engine shard each tick: the tick (only the shard's instruments'
 * ranges), the rows the room's catch-up read for the shard, and the trader orders that left on
 * another shard of a split instrument (their copies here close at that price).
 */
export interface ShardTickInput extends TickInput {
  orders: { open: EngineOrder[]; gone: number[] };
  options: { open: EngineOption[]; gone: number[] };
  departed: { id: number; price: number | null }[];
  /** Answer the partial copy profit of every follow with copies here, not only the changed ones. */
  full: boolean;
  /** The feed the prices come from (on each option's receipt). */
  feed: string;
}

/** One user's live profit on one shard (merged by the room into FOREX_TRADE and FOREX_FOLLOW_TRADE). */
export interface LivePart {
  userId: number;
  /** Micros: the sum of the listed positions' profits. */
  total: number;
  list: { Id: number; UpdatePrice: number; FactProfits: string }[];
  /** The user's copies by the trader followed. */
  follows: { traderId: number; list: { Id: number; UpdatePrice: number; FactProfits: string }[] }[];
}

export interface ShardTickOutput {
  userEvents: UserEvent[];
  live: LivePart[];
  /** [follow id, profit of its open copies here (micros), or null when it has none here any more]. */
  follows: [number, number | null][];
  /** Own orders (not copies) that left in this tick, with their exit price. */
  departed: { id: number; code: string; price: number | null }[];
  pending: number;
  triggers: number;
  copyWork: boolean;
  /** Set when only a price or an instant can give the shard work (see ShardQuiet). */
  quiet?: ShardQuiet;
}

/**
 * When a shard has nothing to do until a price reaches one of its triggers or an instant comes
 * (no retries, copies, cascades or watched positions waiting): the market room hands it a tick
 * only when a range reaches `down` (a fall to it) or `up` (a rise to it) of an instrument, in
 * steps of 10^-p, or at `due` (the next option expiry or delivery).
 */
export interface ShardQuiet {
  codes: Record<string, { p: number; down: number | null; up: number | null }>;
  due: number;
}
