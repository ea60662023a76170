/**
 * The order engine of the market room (ARCHITECTURE.md, "The engine"). D1 is the system of
 * record; the engine only decides *when* to act:
 *   - a trigger index per instrument and direction (party/market/triggers.ts) of every price an
 *     open order waits for: a pending order's buy price, stop-loss, take-profit, liquidation;
 *   - on each tick, the triggers the tick's whole price range reached (a move up and back within
 *     one tick still fires), plus deliveries that fell due, become ONE set-based settlement batch
 *     (services' settleContracts); the index follows what the batch actually did;
 *   - services report committed changes (`apply`); a periodic reconcile reads the rows changed
 *     since a watermark, so a missed report is repaired and a stale entry is harmless (the batch
 *     re-checks each order's status);
 *   - live profit (FOREX_TRADE) is computed each tick only for users with a subscribed socket.
 * Rooms other than the main one (tests) index what they are told and settle nothing.
 */
import {
  OrderStatus,
  Side,
  executionPrice,
  exitCrossing,
  nextDelivery,
  profit as profitOf,
  realisedProfit,
  type Crossing,
} from "~/domain/contract";
import { SETTLE_CHUNK, SETTLE_TRIES, chunked } from "~/domain/engine";
import { newBatchId } from "~/domain/ledger";
import type {
  DeliverySchedule,
  EngineChange,
  EngineOption,
  EngineOrder,
  LivePart,
  OptionSettlementRequest,
  OptionSettlementResult,
  ParkedSettlement,
  SettlementRequest,
  SettlementResult,
  ShardTickInput,
  ShardTickOutput,
  TickInput,
  TickOutput,
  UserEvent,
} from "~/domain/engine";
import type { ShardFilter } from "~/domain/engine-shards";
import { settle as settleOption } from "~/domain/option";
import { priceToSteps, stepsToPrice } from "~/domain/market";
import { toDecimalString } from "~/domain/money";
import { copyStopReached } from "~/domain/copy";
import { SortedLevels, TriggerIndex, triggerKey, unpackKey, type TriggerKind } from "./triggers";

export interface Engine {
  load(): Promise<void>;
  onTick(tick: TickInput): Promise<TickOutput>;
  /** Whether any order waits for a price (the room must keep ticking). */
  hasWork(): boolean;
  apply(changes: EngineChange[]): void | Promise<void>;
}

/** A row that left the open states, with what routes it to its engine shard. */
export interface GoneRow {
  id: number;
  code: string;
  userId: number;
}

/** The engine's access to D1, through the services. */
export interface EngineStore {
  /**
   * At start (changedSince 0): a page of the open orders with ids after `afterId` (`more` when
   * another page may follow); afterwards the catch-up: new ones after `afterId` and those changed
   * since `changedSince`.
   */
  orders(
    changedSince: number,
    afterId?: number,
    filter?: ShardFilter,
  ): Promise<{ open: EngineOrder[]; gone: number[]; goneRows?: GoneRow[]; watermark: number; lastId?: number; more?: boolean }>;
  schedules(now: number): Promise<DeliverySchedule[]>;
  settle(req: SettlementRequest): Promise<SettlementResult>;
  /** Timed options: open ones (all, or changed since a watermark), and their settlement. */
  options?(
    changedSince: number,
    afterId?: number,
    filter?: ShardFilter,
  ): Promise<{ open: EngineOption[]; gone: number[]; goneRows?: GoneRow[]; watermark: number; lastId?: number; more?: boolean }>;
  settleOptions?(req: OptionSettlementRequest): Promise<OptionSettlementResult>;
  /** Copy trading: which of these new positions are an active trader's with followers; open one's copies; close prices of orders that left. */
  copyOrigins?(ids: number[]): Promise<number[]>;
  openCopies?(
    originId: number,
    now: number,
  ): Promise<{ opened: { id: number; userId: number }[]; skipped: { userId: number; reason: string }[] }>;
  closedPrices?(ids: number[]): Promise<{ id: number; price: number; closedAt: number }[]>;
  /** Copy stop-losses of the follows that have open copies; pausing follows whose stop was reached. */
  copyStops?(followIds: number[]): Promise<{ id: number; copyStopLoss: number }[]>;
  pauseFollows?(followIds: number[]): Promise<void>;
  /** Settlements given up after their tries, kept where operators see them. */
  park?(items: ParkedSettlement[]): Promise<void>;
}

const RECENT_TICKS = 120;
/** Delivery schedules are read again this often (orders are caught up on every tick). */
export const RECONCILE_EVERY_MS = 60_000;
/** Rows changed this long before the watermark are read again (clock skew between writers). */
const RECONCILE_OVERLAP_MS = 2_000;

/** What a settlement did, and the decisions whose batch failed even alone (id → the error). */
interface Settled {
  result: SettlementResult;
  failed: Map<number, string>;
  rollsFailed: boolean;
}

type OptionItem = OptionSettlementRequest["items"][number];

/** The last settlements parked, shown by /dev/engine (the console reads them from D1). */
const PARKED_KEPT = 100;

interface Decision {
  order: EngineOrder;
  /** trader_close: a copy closing with its trader's order, at that order's close price. */
  kind: TriggerKind | "delivery" | "trader_close" | "copy_stop";
  price: number;
  profit: number;
}

/** Long loops hand the thread back this often (no synchronous slice of the room blocks its process for long). */
const SLICE = 5_000;
/** Lets the room's other events (ticks, price answers) run between slices of a long loop. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** An error's message for the operator's list (never shown to users). */
function errorText(error: unknown) {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** Whether two reads of one order carry the same fields (so the index need not change). */
function sameOrder(a: EngineOrder, b: EngineOrder) {
  for (const k of Object.keys(b) as (keyof EngineOrder)[]) if ((a[k] ?? null) !== (b[k] ?? null)) return false;
  return true;
}

export class ContractEngine implements Engine {
  private orders = new Map<number, EngineOrder>();
  /** Copy trading: the open copies of each trader order (origin id → copy ids). */
  private copiesOf = new Map<number, Set<number>>();
  /** The open copies of each follow (follow id → copy ids), and the follows holding a copy on each instrument (code → follow id → copies). */
  private followCopies = new Map<number, Set<number>>();
  private followsOn = new Map<string, Map<number, number>>();
  /** Instruments whose last price changed in the current tick (the copy stop-loss re-checks only their follows). */
  private moved = new Set<string>();
  /** Trader orders that left with copies still open: their copies close at the next settlement. */
  private cascade = new Map<number, number | null>();
  /**
   * Trader orders this engine copied whose copies it may not have read yet (they are read by the
   * next catch-up): a close by hand of one of them must still cascade at once.
   */
  private copied = new Set<number>();
  /** A leader's new position was told by the services: the room ticks at once to copy it. */
  private copyNow = false;
  /** Own positions first seen open by the last catch-up (candidates for copying). */
  private opened: number[] = [];
  private copyTries = new Map<number, number>();
  private byUser = new Map<number, Set<number>>();
  private index = new TriggerIndex();
  private deliveries: DeliverySchedule[] = [];
  /** Last price (steps) per instrument, for live profit. */
  private lastPrice = new Map<string, number>();
  /** Price precision per instrument with open orders (the index compares steps). */
  private precision = new Map<string, number>();
  private watermark = 0;
  private lastOrderId = 0;
  private lastOptionId = 0;
  /** Timed options by expiry instant. */
  private options = new Map<number, EngineOption>();
  private expiries = new SortedLevels();
  private optionWatermark = 0;
  /** The feed the prices come from (on each option's receipt). */
  feed = "sim";
  private lastReconcile = 0;
  /** Decisions whose batch failed alone: tried again on the next ticks (at the same price), then parked. */
  private failures = new Map<number, { decision: Decision; tries: number }>();
  private optionFailures = new Map<number, { item: OptionItem; tries: number }>();
  /** Parked since the last tick, waiting to be written to the store. */
  private toPark: ParkedSettlement[] = [];
  /** The last settlements parked (newest last). */
  readonly parked: ParkedSettlement[] = [];
  /**
   * Orders and options parked, with their updatedAt then: the catch-up does not index them again
   * until the row changes (an operator's "try again" marks it changed; so does any user action).
   */
  private parkedOrders = new Map<number, number>();
  private parkedOptions = new Map<number, number>();
  /** The last ticks handed to the engine, newest last (local runs and tests). */
  readonly recent: TickInput[] = [];
  /** Figures of the last settlements (benchmarks). */
  readonly timings: { orders: number; ms: number; kind?: "copy_open" | "copy_close" }[] = [];

  /**
   * A shard (party/engine-shard.ts) loads only its part (`filter`), is handed its catch-up by the
   * market room, and leaves the copy stop-loss and live profit's totals to the room, which sums
   * them over shards. `chunk` is the settlement chunk (tests make it small).
   */
  constructor(
    private readonly store: EngineStore | null,
    private readonly shard: { filter: ShardFilter; chunk?: number } | null = null,
  ) {}

  private get chunk() {
    return this.shard?.chunk ?? SETTLE_CHUNK;
  }
  /** Shards: follows whose copies here changed or moved in price (their partial profit is answered). */
  private dirtyFollows = new Set<number>();
  /** Shards: own orders that left in this tick (a split instrument's other shards may hold their copies). */
  private departures: { id: number; code: string; price: number | null }[] = [];
  /** Shards: the users watching live profit as of the last tick. */
  private watching: readonly number[] = [];
  /** Shards: trader orders that left on another shard; a copy of one read later closes at once. */
  private recentlyGone = new Map<number, number | null>();

  async load() {
    this.orders.clear();
    this.byUser.clear();
    this.copiesOf.clear();
    this.followCopies.clear();
    this.followsOn.clear();
    this.cascade.clear();
    this.copied.clear();
    this.opened = [];
    this.index = new TriggerIndex();
    if (!this.store) return;
    // page by page (by id), so no read answers more than LOAD_PAGE rows; the first page's watermark
    // and last id hold for the catch-up, which then reads whatever changed while paging
    const filter = this.shard?.filter;
    const first = await this.store.orders(0, 0, filter);
    const { watermark } = first;
    this.lastOrderId = first.lastId ?? 0;
    const entries: { code: string; crossing: Crossing; level: number; key: number }[] = [];
    for (let page = first; ; page = await this.store.orders(0, page.open[page.open.length - 1]!.id, filter)) {
      for (let i = 0; i < page.open.length; i++) {
        const order = page.open[i]!;
        this.track(order);
        for (const t of this.triggersOf(order))
          entries.push({ code: order.code, crossing: t.crossing, level: t.level, key: triggerKey(order.id, t.kind) });
        if (i % SLICE === SLICE - 1) await pause();
      }
      if (!page.more || page.open.length === 0) break;
    }
    this.index = TriggerIndex.build(entries);
    // copies whose trader order is no longer open (it closed while the room was away) close at its close price
    for (const origin of this.copiesOf.keys()) if (!this.orders.has(origin)) this.cascade.set(origin, null);
    this.options.clear();
    this.expiries = new SortedLevels();
    if (this.store.options) {
      const loaded = await this.store.options(0, 0, filter);
      this.lastOptionId = loaded.lastId ?? 0;
      const expiries: [number, number][] = [];
      for (let page = loaded; ; page = await this.store.options(0, page.open[page.open.length - 1]!.id, filter)) {
        for (const o of page.open) {
          this.options.set(o.id, o);
          expiries.push([o.expiresAt, o.id]);
        }
        if (!page.more || page.open.length === 0) break;
      }
      this.expiries.assign(expiries);
      this.optionWatermark = loaded.watermark;
    }
    this.watermark = watermark;
    this.lastReconcile = Date.now();
    this.deliveries = await this.schedules(Date.now());
    if (this.shard) for (const id of this.followCopies.keys()) this.dirtyFollows.add(id);
  }

  /** The delivery schedules read again now. */
  async refreshSchedules(now = Date.now()) {
    if (!this.store) return;
    this.lastReconcile = now;
    this.deliveries = await this.schedules(now);
  }

  /** Delivery schedules of the instruments this engine holds. */
  private async schedules(now: number) {
    const all = await this.store!.schedules(now);
    const codes = this.shard?.filter.codes;
    return codes ? all.filter((d) => codes.includes(d.code)) : all;
  }

  hasWork() {
    return this.orders.size > 0 || this.options.size > 0;
  }

  pending() {
    return this.orders.size + this.options.size;
  }

  private upsertOption(option: EngineOption) {
    const parkedAt = this.parkedOptions.get(option.id);
    if (parkedAt !== undefined) {
      if ((option.updatedAt ?? -Infinity) <= parkedAt) return;
      this.parkedOptions.delete(option.id);
    }
    const known = this.options.get(option.id);
    if (known) {
      if (known.updatedAt !== undefined && option.updatedAt !== undefined && option.updatedAt < known.updatedAt) return;
      if (known.expiresAt === option.expiresAt) {
        this.options.set(option.id, option); // read again by the catch-up's overlap: its expiry stays indexed
        return;
      }
      this.expiries.remove(known.expiresAt, known.id);
    }
    this.options.set(option.id, option);
    this.expiries.insert(option.expiresAt, option.id);
  }

  private removeOption(id: number) {
    const known = this.options.get(id);
    if (!known) return;
    this.expiries.remove(known.expiresAt, id);
    this.options.delete(id);
  }

  triggers() {
    return this.index.size();
  }

  apply(changes: EngineChange[]) {
    for (const change of changes) {
      if (change.op === "upsert") {
        const order = change.order;
        const fresh = !this.orders.has(order.id);
        this.upsert(order);
        // a leader's new position, told at once: copied by the tick the room runs now
        if (fresh && order.status === OrderStatus.Holding && !order.originId) {
          this.opened.push(order.id);
          this.copyNow = true;
        }
      } else {
        this.remove(change.id);
        // a trader's order closed by hand: its open copies close at the same price
        this.originLeft(change.id, change.price ?? null);
      }
    }
  }

  /**
   * A trader's order left (closed by hand, read gone, or moved on another shard): its open copies
   * here close at `price` (null: read from D1) with the next settlement. A shard remembers a
   * departure whose copies it does not hold yet (they may be read by a later catch-up).
   */
  private originLeft(id: number, price: number | null) {
    if (this.cascade.has(id) && this.cascade.get(id) !== null) return;
    if (this.copiesOf.has(id) || this.copied.has(id)) {
      this.cascade.set(id, price ?? this.cascade.get(id) ?? null);
      return;
    }
    if (!this.shard) return;
    this.recentlyGone.set(id, price);
    if (this.recentlyGone.size > 20_000) this.recentlyGone.delete(this.recentlyGone.keys().next().value!);
  }

  /** Whether copies wait to open or to close with their trader's order (the room then ticks at once). */
  copyWorkWaiting() {
    return this.cascade.size > 0 || this.copyNow;
  }

  private triggersOf(order: EngineOrder): { kind: TriggerKind; crossing: Crossing; level: number }[] {
    if (order.status === OrderStatus.Pending) {
      return [{ kind: "pending", crossing: order.pendingCrossing > 0 ? "up" : "down", level: order.price }];
    }
    const side = order.side === Side.Sell ? Side.Sell : Side.Buy;
    const out: { kind: TriggerKind; crossing: Crossing; level: number }[] = [];
    if (order.stopLoss > 0) out.push({ kind: "stop_loss", crossing: exitCrossing(side, "stop_loss"), level: order.stopLoss });
    if (order.takeProfit > 0) out.push({ kind: "take_profit", crossing: exitCrossing(side, "take_profit"), level: order.takeProfit });
    if (order.liquidation > 0) out.push({ kind: "liquidation", crossing: exitCrossing(side, "liquidation"), level: order.liquidation });
    return out;
  }

  private track(order: EngineOrder) {
    this.orders.set(order.id, order);
    if (order.originId) {
      // a copy of a trader's order that already left on another shard closes with it
      if (this.recentlyGone.has(order.originId) && !this.cascade.has(order.originId))
        this.cascade.set(order.originId, this.recentlyGone.get(order.originId)!);
      if (order.followId) this.dirtyFollows.add(order.followId);
      let copies = this.copiesOf.get(order.originId);
      if (!copies) this.copiesOf.set(order.originId, (copies = new Set()));
      copies.add(order.id);
      if (order.followId) {
        let mine = this.followCopies.get(order.followId);
        if (!mine) this.followCopies.set(order.followId, (mine = new Set()));
        mine.add(order.id);
        let on = this.followsOn.get(order.code);
        if (!on) this.followsOn.set(order.code, (on = new Map()));
        on.set(order.followId, (on.get(order.followId) ?? 0) + 1);
      }
    }
    this.precision.set(order.code, order.precision);
    let mine = this.byUser.get(order.userId);
    if (!mine) this.byUser.set(order.userId, (mine = new Set()));
    mine.add(order.id);
  }

  /**
   * Indexes an order as it is now. An older copy never replaces a newer one, and one read again
   * unchanged (the catch-up's overlap reads the last 2 s of rows on every tick) is not indexed
   * again; `force` takes the engine's own view after a settlement it saw commit.
   */
  private upsert(order: EngineOrder, force = false) {
    const parkedAt = this.parkedOrders.get(order.id);
    if (parkedAt !== undefined) {
      if ((order.updatedAt ?? -Infinity) <= parkedAt) return;
      this.parkedOrders.delete(order.id);
    }
    const known = this.orders.get(order.id);
    if (known && !force && known.updatedAt !== undefined && order.updatedAt !== undefined) {
      if (order.updatedAt < known.updatedAt) return;
      if (order.updatedAt === known.updatedAt && sameOrder(known, order)) return;
    }
    this.remove(order.id);
    this.track(order);
    for (const t of this.triggersOf(order)) this.index.add(order.code, t.crossing, t.level, triggerKey(order.id, t.kind));
  }

  private remove(id: number) {
    const order = this.orders.get(id);
    if (!order) return;
    for (const t of this.triggersOf(order)) this.index.remove(order.code, t.crossing, t.level, triggerKey(order.id, t.kind));
    this.orders.delete(id);
    if (order.originId) {
      const copies = this.copiesOf.get(order.originId);
      copies?.delete(id);
      if (copies && copies.size === 0) this.copiesOf.delete(order.originId);
      if (order.followId) {
        this.dirtyFollows.add(order.followId);
        const mine = this.followCopies.get(order.followId);
        mine?.delete(id);
        if (mine && mine.size === 0) this.followCopies.delete(order.followId);
        const on = this.followsOn.get(order.code);
        const n = (on?.get(order.followId) ?? 0) - 1;
        if (on && n > 0) on.set(order.followId, n);
        else {
          on?.delete(order.followId);
          if (on && on.size === 0) this.followsOn.delete(order.code);
        }
      }
    }
    const mine = this.byUser.get(order.userId);
    mine?.delete(id);
    if (mine && mine.size === 0) this.byUser.delete(order.userId);
  }

  /**
   * Reads the rows changed since the watermark (one indexed query): new and modified orders are
   * indexed, departed ones dropped. Run at the start of every tick, so an order committed before
   * a tick is known to it even if the service's notification is late or lost.
   */
  async catchUp() {
    if (!this.store) return;
    const { open, gone, watermark, lastId } = await this.store.orders(Math.max(1, this.watermark - RECONCILE_OVERLAP_MS), this.lastOrderId);
    this.absorb(open, gone);
    this.watermark = watermark;
    this.lastOrderId = Math.max(this.lastOrderId, lastId ?? 0);
    if (this.store.options) {
      const changed = await this.store.options(Math.max(1, this.optionWatermark - RECONCILE_OVERLAP_MS), this.lastOptionId);
      this.absorbOptions(changed.open, changed.gone);
      this.optionWatermark = changed.watermark;
      this.lastOptionId = Math.max(this.lastOptionId, changed.lastId ?? 0);
    }
  }

  /** Rows a catch-up read (this engine's own, or the room's for a shard): indexed or dropped. */
  absorb(open: EngineOrder[], gone: number[]) {
    for (const order of open) {
      if (order.status === OrderStatus.Holding && !order.originId && !this.orders.has(order.id)) this.opened.push(order.id);
      this.upsert(order);
    }
    for (const id of gone) {
      this.remove(id);
      this.originLeft(id, null);
    }
  }

  absorbOptions(open: EngineOption[], gone: number[]) {
    for (const o of open) this.upsertOption(o);
    for (const id of gone) this.removeOption(id);
  }

  /** The catch-up, and the delivery schedules read again. */
  async reconcile(now = Date.now()) {
    if (!this.store) return;
    await this.catchUp();
    this.lastReconcile = now;
    this.deliveries = await this.schedules(now);
  }

  /** What this tick triggers: at most one decision per order. */
  decide(tick: TickInput): { decisions: Decision[]; rolls: SettlementRequest["rolls"] } {
    this.moved.clear();
    const decisions = new Map<number, Decision>();
    const ranges = new Map(tick.ranges.map((r) => [r.code, r]));
    for (const range of tick.ranges) {
      const p = this.precision.get(range.code);
      if (p === undefined) continue;
      const r = { open: priceToSteps(range.open, p), low: priceToSteps(range.low, p), high: priceToSteps(range.high, p) };
      const last = priceToSteps(range.last, p);
      if (this.lastPrice.get(range.code) !== last) {
        this.moved.add(range.code);
        if (this.shard) for (const followId of this.followsOn.get(range.code)?.keys() ?? []) this.dirtyFollows.add(followId);
      }
      this.lastPrice.set(range.code, last);
      const candidates = new Map<number, { kind: TriggerKind; level: number }[]>();
      for (const key of this.index.fired(range.code, r.low, r.high)) {
        const { id, kind } = unpackKey(key);
        const order = this.orders.get(id);
        if (!order) continue;
        const level =
          kind === "pending"
            ? order.price
            : kind === "stop_loss"
              ? order.stopLoss
              : kind === "take_profit"
                ? order.takeProfit
                : order.liquidation;
        let list = candidates.get(id);
        if (!list) candidates.set(id, (list = []));
        list.push({ kind, level });
      }
      for (const [id, list] of candidates) {
        const order = this.orders.get(id)!;
        if (order.status === OrderStatus.Pending) {
          decisions.set(id, { order, kind: "pending", price: order.price, profit: 0 });
          continue;
        }
        // Both sides reached in one tick: the losing side first (conservative). Among stop-loss and
        // liquidation, the level the price reaches first (a buy's higher one, a sell's lower one).
        const losing = list.filter((c) => c.kind !== "take_profit");
        const pool = losing.length > 0 ? losing : list;
        const chosen = pool.reduce((a, b) => (order.side === Side.Buy ? (b.level > a.level ? b : a) : b.level < a.level ? b : a));
        const price = executionPrice(chosen.level, r);
        const raw = profitOf(order.side, order.price, price, order.lots, order.contractSize, order.precision);
        decisions.set(id, { order, kind: chosen.kind, price, profit: realisedProfit(raw, order.margin) });
      }
    }
    // Deliveries: every open order of the instrument, at the first price at or after the instant.
    const rolls: SettlementRequest["rolls"] = [];
    for (const d of this.deliveries) {
      if (d.at > tick.time) continue;
      const open = [...this.orders.values()].filter((o) => o.code === d.code);
      const range = ranges.get(d.code);
      if (open.length > 0 && !range) continue; // no price yet: deliver at the first one
      rolls.push({ instrumentId: d.instrumentId, from: d.at, to: nextDelivery(d.days, Math.max(d.at, tick.time)) });
      for (const order of open) {
        const price = priceToSteps(range!.last, order.precision);
        if (order.status === OrderStatus.Pending) decisions.set(order.id, { order, kind: "delivery", price, profit: 0 });
        else {
          const raw = profitOf(order.side, order.price, price, order.lots, order.contractSize, order.precision);
          decisions.set(order.id, { order, kind: "delivery", price, profit: realisedProfit(raw, order.margin) });
        }
      }
    }
    return { decisions: [...decisions.values()], rolls };
  }

  async onTick(tick: TickInput): Promise<TickOutput> {
    this.recent.push(tick);
    if (this.recent.length > RECENT_TICKS) this.recent.splice(0, this.recent.length - RECENT_TICKS);
    if (!this.store) return { userEvents: [] };
    try {
      if (this.shard) {
        // a shard is handed its catch-up by the room; the delivery schedules it reads itself
        const input = tick as ShardTickInput;
        this.absorb(input.orders.open, input.orders.gone);
        this.absorbOptions(input.options.open, input.options.gone);
        for (const d of input.departed) this.originLeft(d.id, d.price);
        if (tick.time - this.lastReconcile >= RECONCILE_EVERY_MS) {
          this.lastReconcile = tick.time;
          this.deliveries = await this.schedules(tick.time);
        }
      } else if (tick.time - this.lastReconcile >= RECONCILE_EVERY_MS) await this.reconcile(tick.time);
      else await this.catchUp();
    } catch (error) {
      console.error("engine reconcile failed", error);
    }
    const userEvents: UserEvent[] = [];
    const { decisions, rolls } = this.decide(tick);
    // decisions whose batch failed on an earlier tick are tried again at the price they were decided at
    if (this.failures.size > 0) {
      const decided = new Set(decisions.map((d) => d.order.id));
      for (const [id, f] of this.failures) {
        if (!this.orders.has(id)) this.failures.delete(id);
        else if (!decided.has(id)) decisions.push(f.decision);
      }
    }
    if (decisions.length > 0 || rolls.length > 0) {
      const started = Date.now();
      const settled = await this.settle(tick.time, decisions, rolls);
      const { result } = settled;
      this.timings.push({ orders: decisions.length, ms: Date.now() - started });
      if (this.timings.length > 50) this.timings.shift();
      userEvents.push(...this.afterSettlement(decisions, rolls, settled, tick.time));
      const exited = new Set(result.exited.map((e) => e.id));
      for (const d of decisions) {
        if (!exited.has(d.order.id)) continue;
        if (this.copiesOf.has(d.order.id)) this.cascade.set(d.order.id, d.price);
        if (this.shard && !d.order.originId && !d.order.followId)
          this.departures.push({ id: d.order.id, code: d.order.code, price: d.price });
      }
      for (const f of result.filled) this.opened.push(f.id);
    }
    userEvents.push(...(await this.copyStep(tick)));
    userEvents.push(...(await this.settleDueOptions(tick)));
    if (!this.shard) userEvents.push(...this.liveProfit(tick.watchers ?? []));
    await this.flushParked();
    return { userEvents };
  }

  /** A shard's tick: its settlements, and what the room sums over shards (live profit, follows' copy profit). */
  async shardTick(input: ShardTickInput): Promise<ShardTickOutput> {
    const { userEvents } = await this.onTick(input);
    const watchers = (this.watching = input.watchers ?? []);
    return {
      userEvents,
      live: this.liveParts(watchers),
      follows: this.followPartials(input.full),
      departed: this.departures.splice(0),
      pending: this.pending(),
      triggers: this.triggers(),
      copyWork: this.copyWorkWaiting(),
      quiet: this.quiet(watchers),
    };
  }

  /**
   * What can give this engine work before its next tick, when that is only a price reaching a
   * trigger or an instant (an option's expiry, a delivery); undefined when it needs every tick
   * (retries waiting, copies to open, close or watch for their stop-loss, watched positions).
   */
  quiet(watchers: readonly number[] = this.watching): ShardTickOutput["quiet"] {
    if (
      this.failures.size > 0 ||
      this.optionFailures.size > 0 ||
      this.cascade.size > 0 ||
      this.opened.length > 0 ||
      this.copyNow ||
      this.toPark.length > 0
    )
      return undefined;
    if (this.followCopies.size > 0 || this.copiesOf.size > 0 || this.copied.size > 0) return undefined;
    for (const w of watchers) if (this.byUser.has(w)) return undefined;
    let due = this.expiries.first() ?? Infinity;
    for (const d of this.deliveries) due = Math.min(due, d.at);
    const codes: NonNullable<ShardTickOutput["quiet"]>["codes"] = {};
    for (const [code, b] of this.index.bounds()) codes[code] = { p: this.precision.get(code) ?? 0, ...b };
    return { codes, due: Number.isFinite(due) ? due : Number.MAX_SAFE_INTEGER };
  }

  /**
   * A shard's part of each follow's copy stop-loss: the profit of the follow's open copies held
   * here at the last prices, for the follows whose copies changed or moved in price (all when
   * `full`); null when it holds none any more. A follow with a copy not yet priced is left out.
   */
  followPartials(full = false): [number, number | null][] {
    const ids = full ? new Set([...this.followCopies.keys(), ...this.dirtyFollows]) : this.dirtyFollows;
    const out: [number, number | null][] = [];
    for (const followId of ids) {
      let total = 0;
      let open = 0;
      let priced = true;
      for (const id of this.followCopies.get(followId) ?? []) {
        const c = this.orders.get(id);
        if (!c || c.status !== OrderStatus.Holding) continue;
        const price = this.lastPrice.get(c.code);
        if (price === undefined) {
          priced = false;
          break;
        }
        open += 1;
        total += realisedProfit(profitOf(c.side, c.price, price, c.lots, c.contractSize, c.precision), c.margin);
      }
      if (priced) out.push([followId, open > 0 ? total : null]);
    }
    this.dirtyFollows.clear();
    return out;
  }

  /** The room found these follows' copy stop-loss reached: their open copies here close at the last prices, in one settlement. */
  async closeFollows(time: number, followIds: number[]): Promise<UserEvent[]> {
    const decisions: Decision[] = [];
    for (const followId of followIds) {
      for (const id of this.followCopies.get(followId) ?? []) {
        const c = this.orders.get(id);
        const price = c ? this.lastPrice.get(c.code) : undefined;
        if (!c || c.status !== OrderStatus.Holding || price === undefined) continue;
        decisions.push({
          order: c,
          kind: "copy_stop",
          price,
          profit: realisedProfit(profitOf(c.side, c.price, price, c.lots, c.contractSize, c.precision), c.margin),
        });
      }
    }
    if (decisions.length === 0 || !this.store) return [];
    return this.afterSettlement(decisions, [], await this.settle(time, decisions, []), time);
  }

  /** Trader orders that left on another shard of a split instrument: their copies here close now, at that price. */
  async cascadeFrom(time: number, departed: { id: number; price: number | null }[]): Promise<UserEvent[]> {
    for (const d of departed) this.originLeft(d.id, d.price);
    if (this.cascade.size === 0) return [];
    return this.closeCascades(time);
  }

  /**
   * The copy stop-loss: a follow whose open copies' combined profit (at the last prices) is a loss
   * of at least its limit stops copying (paused) and its copies close at those prices, in one batch.
   * Only the follows holding a copy on an instrument whose price moved this tick are re-checked
   * (their limits read in one query); a follow's copies may sit on several instruments.
   */
  private async copyStops(tick: TickInput): Promise<UserEvent[]> {
    const store = this.store;
    if (!store?.copyStops || !store.pauseFollows) return [];
    const byFollow = new Map<number, EngineOrder[]>();
    let walked = 0;
    for (const code of this.moved) {
      for (const followId of this.followsOn.get(code)?.keys() ?? []) {
        if (byFollow.has(followId)) continue;
        if (++walked % SLICE === 0) await pause();
        const list: EngineOrder[] = [];
        for (const id of this.followCopies.get(followId) ?? []) {
          const copy = this.orders.get(id);
          if (copy && copy.status === OrderStatus.Holding) list.push(copy);
        }
        if (list.length > 0) byFollow.set(followId, list);
      }
    }
    if (byFollow.size === 0) return [];
    let stops: { id: number; copyStopLoss: number }[];
    try {
      stops = await store.copyStops([...byFollow.keys()]);
    } catch (error) {
      console.error("reading copy stop-losses failed", error);
      return [];
    }
    const decisions: Decision[] = [];
    const reached: number[] = [];
    for (const stop of stops) {
      const copies = byFollow.get(stop.id) ?? [];
      const marks = copies.map((c) => ({ c, price: this.lastPrice.get(c.code) }));
      if (marks.some((m) => m.price === undefined)) continue;
      const figures = marks.map(({ c, price }) => ({
        c,
        price: price!,
        profit: realisedProfit(profitOf(c.side, c.price, price!, c.lots, c.contractSize, c.precision), c.margin),
      }));
      if (
        !copyStopReached(
          figures.reduce((s, f) => s + f.profit, 0),
          stop.copyStopLoss,
        )
      )
        continue;
      reached.push(stop.id);
      for (const f of figures) decisions.push({ order: f.c, kind: "copy_stop", price: f.price, profit: f.profit });
    }
    if (reached.length === 0) return [];
    await store.pauseFollows(reached);
    return this.afterSettlement(decisions, [], await this.settle(tick.time, decisions, []), tick.time);
  }

  private note(timing: { orders: number; ms: number; kind?: "copy_open" | "copy_close" }) {
    this.timings.push(timing);
    if (this.timings.length > 50) this.timings.shift();
  }

  /**
   * The close cascade: the open copies of every trader order that left (by the engine at its exit
   * price, or by the trader by hand, at the close price read from D1) close in one settlement, at
   * that price, under the same once-only exit keys as any close.
   */
  private async closeCascades(time: number): Promise<UserEvent[]> {
    const store = this.store!;
    const events: UserEvent[] = [];
    const unknown = [...this.cascade].filter(([, price]) => price === null).map(([id]) => id);
    if (unknown.length > 0 && store.closedPrices) {
      try {
        for (const c of await store.closedPrices(unknown)) this.cascade.set(c.id, c.price);
      } catch (error) {
        console.error("close prices of traders' orders failed", error);
      }
    }
    const decisions: Decision[] = [];
    for (const [origin, price] of this.cascade) {
      if (price === null) continue;
      this.copied.delete(origin);
      for (const id of this.copiesOf.get(origin) ?? []) {
        const copy = this.orders.get(id);
        if (!copy || copy.status !== OrderStatus.Holding) continue;
        const raw = profitOf(copy.side, copy.price, price, copy.lots, copy.contractSize, copy.precision);
        decisions.push({ order: copy, kind: "trader_close", price, profit: realisedProfit(raw, copy.margin) });
      }
      this.cascade.delete(origin);
    }
    if (decisions.length > 0) {
      const started = Date.now();
      const settled = await this.settle(time, decisions, []);
      this.note({ orders: decisions.length, ms: Date.now() - started, kind: "copy_close" });
      events.push(...this.afterSettlement(decisions, [], settled, time));
    }
    return events;
  }

  /**
   * Copy trading, once per tick after the tick's own settlement:
   *   - the close cascade: the open copies of every trader order that left (by the engine this
   *     tick at its exit price, or by the trader by hand, at the close price read from D1) close in
   *     one settlement batch, at that price, under the same once-only exit keys as any close (a
   *     follower who closed a copy earlier keeps that result);
   *   - copies: the own positions that opened since the last tick (market orders caught up, pending
   *     orders filled this tick) of active traders are copied to their followers, one batch per
   *     trader order (services' openCopies).
   */
  private async copyStep(tick: TickInput): Promise<UserEvent[]> {
    const store = this.store;
    const events: UserEvent[] = [];
    this.copyNow = false;
    if (!store) return events;
    if (this.cascade.size > 0) events.push(...(await this.closeCascades(tick.time)));
    // a shard's follows may hold copies on other shards: the room sums and decides
    if (!this.shard) events.push(...(await this.copyStops(tick)));
    const candidates = this.opened.splice(0);
    if (candidates.length > 0 && store.copyOrigins && store.openCopies) {
      let origins: number[] = [];
      try {
        origins = await store.copyOrigins(candidates);
      } catch (error) {
        console.error("finding traders' new positions failed", error);
        this.opened.push(...candidates); // tried again next tick
      }
      for (const origin of origins) {
        try {
          const started = Date.now();
          const done = await store.openCopies(origin, tick.time);
          this.note({ orders: done.opened.length, ms: Date.now() - started, kind: "copy_open" });
          if (done.opened.length > 0) this.copied.add(origin);
        } catch (error) {
          // the copies' unique key makes a retry safe; give up after a few ticks
          const tries = (this.copyTries.get(origin) ?? 0) + 1;
          console.error("copying failed", origin, tries, error);
          if (tries < 5) {
            this.copyTries.set(origin, tries);
            this.opened.push(origin);
          } else this.copyTries.delete(origin);
        }
      }
    }
    return events;
  }

  /**
   * Options whose expiry has come: each settles at the price of the first tick at or after its
   * expiry (this tick's last price of its instrument; an instrument without a price this tick
   * waits for its next one). An expiry that passed while the room was away is marked late.
   */
  optionsDue(tick: TickInput): OptionSettlementRequest["items"] {
    const ranges = new Map(tick.ranges.map((r) => [r.code, r]));
    const items: OptionSettlementRequest["items"] = [];
    for (const id of this.expiries.atOrBelow(tick.time)) {
      const o = this.options.get(id);
      if (!o) continue;
      // tried before and failed: the same settlement again (its price is the first after the expiry)
      const retry = this.optionFailures.get(id);
      if (retry) {
        items.push(retry.item);
        continue;
      }
      const range = ranges.get(o.code);
      if (!range) continue;
      const end = priceToSteps(range.last, o.precision);
      const result = settleOption(o.direction, o.openPrice, end, o.amount, o.profitRatio, o.lossLevel);
      items.push({
        id,
        userId: o.userId,
        endPrice: end,
        endTickAt: tick.time,
        endFeed: this.feed,
        late: tick.catchUp && o.expiresAt <= tick.since,
        profit: result.profit,
        payout: result.payout,
      });
    }
    return items;
  }

  private async settleDueOptions(tick: TickInput): Promise<UserEvent[]> {
    if (!this.store?.settleOptions) return [];
    const items = this.optionsDue(tick);
    if (items.length === 0) return [];
    const settled: OptionSettlementResult["settled"] = [];
    const failed = new Map<number, string>();
    const started = Date.now();
    for (const chunk of chunked(items, this.chunk)) await this.settleOptionChunk(tick.time, chunk, settled, failed);
    this.note({ orders: items.length, ms: Date.now() - started });
    for (const item of items) {
      const error = failed.get(item.id);
      if (error === undefined) {
        this.optionFailures.delete(item.id);
        this.removeOption(item.id); // settled now, or by an earlier batch
        continue;
      }
      const tries = (this.optionFailures.get(item.id)?.tries ?? 0) + 1;
      if (tries < SETTLE_TRIES) this.optionFailures.set(item.id, { item, tries });
      else {
        this.optionFailures.delete(item.id);
        this.parkedOptions.set(item.id, this.options.get(item.id)?.updatedAt ?? -Infinity);
        this.removeOption(item.id);
        this.park({
          kind: "option",
          id: item.id,
          userId: item.userId,
          reason: "expiry",
          price: item.endPrice,
          tries,
          error,
          at: tick.time,
        });
      }
    }
    const byUser = new Map<number, { Id: number; FactProfits: string }[]>();
    for (const s of settled) {
      let list = byUser.get(s.userId);
      if (!list) byUser.set(s.userId, (list = []));
      list.push({ Id: s.id, FactProfits: toDecimalString(s.profit, 2) });
    }
    return [...byUser].map(([userId, list]) => ({ userId, topic: "MICRO_SETTLED" as const, data: list }));
  }

  /** One chunk of options in one batch; a failed chunk splits in halves down to one option. */
  private async settleOptionChunk(
    time: number,
    items: OptionItem[],
    settled: OptionSettlementResult["settled"],
    failed: Map<number, string>,
  ): Promise<void> {
    try {
      const result = await this.store!.settleOptions!({ batchId: newBatchId(), time, items });
      settled.push(...result.settled);
    } catch (error) {
      // nothing of this chunk was written (one batch)
      if (items.length === 1) {
        console.error("option settlement failed", items[0]!.id, error);
        failed.set(items[0]!.id, errorText(error));
        return;
      }
      const half = Math.ceil(items.length / 2);
      await this.settleOptionChunk(time, items.slice(0, half), settled, failed);
      await this.settleOptionChunk(time, items.slice(half), settled, failed);
    }
  }

  /** Records a settlement given up on; the store is written at the end of the tick. */
  private park(item: ParkedSettlement) {
    console.error("settlement parked for an operator", item);
    this.toPark.push(item);
    this.parked.push(item);
    if (this.parked.length > PARKED_KEPT) this.parked.splice(0, this.parked.length - PARKED_KEPT);
  }

  private async flushParked() {
    if (this.toPark.length === 0 || !this.store?.park) return;
    const items = this.toPark.splice(0);
    try {
      await this.store.park(items);
    } catch (error) {
      console.error("parking settlements failed", error);
      this.toPark.unshift(...items); // written with the next tick's
    }
  }

  private request(time: number, decisions: Decision[], rolls: SettlementRequest["rolls"]): SettlementRequest {
    const req: SettlementRequest = { batchId: newBatchId(), time, exits: [], fills: [], cancels: [], rolls };
    for (const d of decisions) {
      if (d.order.status === OrderStatus.Pending) {
        if (d.kind === "pending") req.fills.push({ id: d.order.id, price: d.price });
        else req.cancels.push({ id: d.order.id, reason: d.kind });
      } else req.exits.push({ id: d.order.id, reason: d.kind, price: d.price, profit: d.profit });
    }
    return req;
  }

  /**
   * Settles the decisions in chunks of SETTLE_CHUNK, one batch each (within D1's limits, and the
   * writer is released between them); the rolls go with the first. A chunk that fails splits in
   * halves down to one order, so one bad row cannot hold up the rest; what fails alone is reported
   * in `failed` (retried on the next ticks, then parked).
   */
  private async settle(time: number, decisions: Decision[], rolls: SettlementRequest["rolls"]): Promise<Settled> {
    const settled: Settled = { result: { exited: [], filled: [], cancelled: [] }, failed: new Map(), rollsFailed: false };
    const parts = chunked(decisions, this.chunk);
    if (parts.length === 0) parts.push([]);
    for (let i = 0; i < parts.length; i++) await this.settleChunk(time, parts[i]!, i === 0 ? rolls : [], settled);
    return settled;
  }

  private async settleChunk(time: number, decisions: Decision[], rolls: SettlementRequest["rolls"], into: Settled): Promise<void> {
    try {
      const r = await this.store!.settle(this.request(time, decisions, rolls));
      into.result.exited.push(...r.exited);
      into.result.filled.push(...r.filled);
      into.result.cancelled.push(...r.cancelled);
      return;
    } catch (error) {
      if (decisions.length + (rolls.length > 0 ? 1 : 0) <= 1) {
        console.error("settlement failed", decisions[0]?.order.id ?? "rolls", error);
        if (decisions[0]) into.failed.set(decisions[0].order.id, errorText(error));
        else into.rollsFailed = true;
        return;
      }
    }
    if (decisions.length <= 1) {
      // one order and the rolls: each alone
      await this.settleChunk(time, decisions, [], into);
      await this.settleChunk(time, [], rolls, into);
      return;
    }
    const half = Math.ceil(decisions.length / 2);
    await this.settleChunk(time, decisions.slice(0, half), rolls, into);
    await this.settleChunk(time, decisions.slice(half), [], into);
  }

  private afterSettlement(decisions: Decision[], rolls: SettlementRequest["rolls"], settled: Settled, now: number): UserEvent[] {
    const { result, failed } = settled;
    const filled = new Set(result.filled.map((f) => f.id));
    for (const d of decisions) {
      const error = failed.get(d.order.id);
      if (error !== undefined) {
        this.failedAlone(d, error, now);
        continue;
      }
      this.failures.delete(d.order.id);
      if (filled.has(d.order.id)) this.upsert({ ...d.order, status: 1, price: d.price }, true);
      else this.remove(d.order.id); // moved by this batch, or already gone from its state in D1
    }
    if (!settled.rollsFailed) {
      for (const roll of rolls) {
        const d = this.deliveries.find((x) => x.instrumentId === roll.instrumentId);
        if (d && d.at === roll.from) d.at = roll.to;
      }
    }
    const closedByUser = new Map<number, number[]>();
    for (const e of [...result.exited, ...result.cancelled]) {
      let list = closedByUser.get(e.userId);
      if (!list) closedByUser.set(e.userId, (list = []));
      list.push(e.id);
    }
    return [...closedByUser].map(([userId, ids]) => ({ userId, topic: "FOREX_CLOSED" as const, data: ids }));
  }

  /** A decision whose batch failed even alone: kept for the next ticks, parked after SETTLE_TRIES. */
  private failedAlone(d: Decision, error: string, now: number) {
    const tries = (this.failures.get(d.order.id)?.tries ?? 0) + 1;
    if (tries < SETTLE_TRIES) {
      this.failures.set(d.order.id, { decision: d, tries });
      return;
    }
    this.failures.delete(d.order.id);
    this.parkedOrders.set(d.order.id, this.orders.get(d.order.id)?.updatedAt ?? -Infinity);
    this.remove(d.order.id);
    const reason = d.order.status === OrderStatus.Pending && d.kind === "pending" ? "fill" : d.kind;
    this.park({ kind: "contract", id: d.order.id, userId: d.order.userId, reason, price: d.price, tries, error, at: now });
  }

  /** FOREX_TRADE for each watching user with holding positions: each order's mark price and profit, and the total. */
  liveProfit(watchers: number[]): UserEvent[] {
    return liveEvents(this.liveParts(watchers));
  }

  /** Each watching user's holding positions here at the last prices (FOREX_TRADE's list and total, by trader for copies). */
  liveParts(watchers: number[]): LivePart[] {
    const parts: LivePart[] = [];
    for (const userId of watchers) {
      const ids = this.byUser.get(userId);
      if (!ids) continue;
      let total = 0;
      const list: LivePart["list"] = [];
      const byTrader = new Map<number, LivePart["list"]>();
      for (const id of ids) {
        const o = this.orders.get(id)!;
        if (o.status !== OrderStatus.Holding) continue;
        const mark = this.lastPrice.get(o.code);
        if (mark === undefined) continue;
        const p = realisedProfit(profitOf(o.side, o.price, mark, o.lots, o.contractSize, o.precision), o.margin);
        total += p;
        const item = { Id: id, UpdatePrice: stepsToPrice(mark, o.precision), FactProfits: toDecimalString(p, 2) };
        list.push(item);
        if (!o.originId) continue;
        // FOREX_FOLLOW_TRADE: the user's copies, per trader followed (the trader's order sits with its copies, or 0 when unknown here)
        const traderId = o.traderId ?? this.orders.get(o.originId)?.userId ?? 0;
        let mine = byTrader.get(traderId);
        if (!mine) byTrader.set(traderId, (mine = []));
        mine.push(item);
      }
      if (list.length > 0) parts.push({ userId, total, list, follows: [...byTrader].map(([traderId, l]) => ({ traderId, list: l })) });
    }
    return parts;
  }

  /** Seeds the last price of instruments (live profit before the first range of a code arrives). */
  notePrice(code: string, price: number) {
    const p = this.precision.get(code);
    if (p !== undefined) this.lastPrice.set(code, priceToSteps(price, p));
  }
}

/**
 * FOREX_TRADE and FOREX_FOLLOW_TRADE from live profit parts (one engine's, or every shard's for
 * the same users): one event per user with the total over all its positions, and one per user
 * and trader followed.
 */
export function liveEvents(parts: LivePart[]): UserEvent[] {
  const byUser = new Map<number, { total: number; list: LivePart["list"]; follows: Map<number, LivePart["list"]> }>();
  for (const part of parts) {
    let u = byUser.get(part.userId);
    if (!u) byUser.set(part.userId, (u = { total: 0, list: [], follows: new Map() }));
    u.total += part.total;
    u.list.push(...part.list);
    for (const f of part.follows) {
      const l = u.follows.get(f.traderId);
      if (l) l.push(...f.list);
      else u.follows.set(f.traderId, [...f.list]);
    }
  }
  const events: UserEvent[] = [];
  for (const [userId, u] of byUser) {
    events.push({ userId, topic: "FOREX_TRADE", data: { all_fact_profits: toDecimalString(u.total, 2), list: u.list } });
    for (const [traderId, followed] of u.follows)
      events.push({ userId, topic: "FOREX_FOLLOW_TRADE", data: { user_id: traderId, follower_id: userId, list: followed } });
  }
  return events;
}
