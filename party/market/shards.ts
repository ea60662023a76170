/**
 * The engine spread over shards (docs/decisions/018-scale.md, "Engine shards"), as the market
 * room's clock sees it: one Engine whose work the EngineShard objects do.
 *   - The room stays the price clock. Each tick it reads what changed in D1 once (the catch-up),
 *     hands every shard with work its instruments' ranges and its rows, and waits until the last
 *     shard has answered.
 *   - Trader orders that left on one shard of a split instrument are handed to its other shards
 *     in the same tick (a follower's copy sits with the follower's other orders).
 *   - A follow's copy stop-loss is on the profit summed over its copies, which may sit on
 *     several shards: each shard answers its part for the follows whose copies moved, the room
 *     sums, reads the limits of those in loss and has the shards close the copies of those reached.
 *   - Live profit is merged over shards into one FOREX_TRADE per user.
 */
import type {
  EngineChange,
  LivePart,
  ParkedSettlement,
  ShardQuiet,
  ShardTickInput,
  ShardTickOutput,
  TickInput,
  TickOutput,
  UserEvent,
} from "~/domain/engine";
import { priceToSteps } from "~/domain/market";
import { assign, holds, shardName, shardsFor, shardsOfCode, type ShardPlan, type ShardSpec } from "~/domain/engine-shards";
import { copyStopReached } from "~/domain/copy";
import { liveEvents, type Engine, type EngineStore, type GoneRow } from "./engine";

/** What the room calls on a shard (EngineShard's RPC methods). */
export interface ShardApi {
  wake(spec: ShardSpec): Promise<ShardState>;
  tick(spec: ShardSpec, input: ShardTickInput): Promise<ShardTickOutput>;
  apply(spec: ShardSpec, changes: EngineChange[]): Promise<ShardState>;
  absorb(spec: ShardSpec, rows: { orders: ShardTickInput["orders"]; options: ShardTickInput["options"] }): Promise<ShardState>;
  cascade(spec: ShardSpec, time: number, departed: { id: number; price: number | null }[]): Promise<UserEvent[]>;
  closeFollows(spec: ShardSpec, time: number, followIds: number[]): Promise<UserEvent[]>;
  refresh(spec: ShardSpec): Promise<ShardState>;
  view(
    spec: ShardSpec,
  ): Promise<{ timings: { orders: number; ms: number; kind?: string }[]; parked: ParkedSettlement[]; status: ShardState }>;
}

interface ShardState {
  pending: number;
  triggers: number;
  copyWork: boolean;
  quiet?: ShardQuiet;
}

const RECENT_TICKS = 120;
/** Rows changed this long before the watermark are read again (clock skew between writers). */
const OVERLAP_MS = 2_000;
/** Every shard with work gets a tick at least this often (it reads its delivery schedules again then). */
const EVERY_SHARD_MS = 60_000;

type Routed = { open: ShardTickInput["orders"]["open"]; gone: number[]; options: ShardTickInput["options"]["open"]; optionsGone: number[] };

export class ShardedEngine implements Engine {
  feed = "sim";
  readonly recent: TickInput[] = [];
  private specs: ShardSpec[];
  private state = new Map<string, ShardState>();
  /** Shards that must answer every follow's part on their next tick (new to the room, or a failed call). */
  private needFull = new Set<string>();
  private watermark = 0;
  private lastOrderId = 0;
  private optionWatermark = 0;
  private lastOptionId = 0;
  /** Each follow's copy profit by shard (micros), as the shards last answered. */
  private partials = new Map<number, Map<string, number>>();
  /** The watchers of the last tick (a new one has every shard asked for its positions). */
  private watchers = "";
  private lastEvery = 0;
  /** Ticks handed to shards and skipped as quiet (figures for /dev/engine and the bench). */
  readonly calls = { handed: 0, skipped: 0 };

  private readonly plan: ShardPlan;

  constructor(
    private readonly store: Required<EngineStore>,
    private readonly shard: (name: string) => ShardApi,
    plan: ShardPlan,
    codes: readonly string[],
  ) {
    this.plan = assign(plan, codes);
    this.specs = shardsFor(this.plan, codes);
  }

  shards(): readonly ShardSpec[] {
    return this.specs;
  }

  /** Marks where the catch-up starts, then has every shard load its part (in parallel). */
  async load() {
    const now = Date.now();
    const [orders, options] = await Promise.all([
      this.store.orders(now, Number.MAX_SAFE_INTEGER),
      this.store.options(now, Number.MAX_SAFE_INTEGER),
    ]);
    this.watermark = now;
    this.lastOrderId = orders.lastId ?? 0;
    this.optionWatermark = now;
    this.lastOptionId = options.lastId ?? 0;
    this.partials.clear();
    for (const spec of this.specs) this.needFull.add(spec.name);
    await this.each(
      this.specs,
      (spec) => this.shard(spec.name).wake(spec),
      (spec, status) => this.state.set(spec.name, status),
    );
  }

  hasWork() {
    return this.pending() > 0;
  }

  pending() {
    let n = 0;
    for (const s of this.state.values()) n += s.pending;
    return n;
  }

  triggers() {
    let n = 0;
    for (const s of this.state.values()) n += s.triggers;
    return n;
  }

  copyWorkWaiting() {
    for (const s of this.state.values()) if (s.copyWork) return true;
    return false;
  }

  /** Calls `fn` on each shard in parallel; a shard that fails is logged and asked for everything next time. */
  private async each<T>(specs: readonly ShardSpec[], fn: (spec: ShardSpec) => Promise<T>, done: (spec: ShardSpec, value: T) => void) {
    const results = await Promise.allSettled(specs.map(fn));
    results.forEach((r, i) => {
      const spec = specs[i]!;
      if (r.status === "fulfilled") done(spec, r.value);
      else {
        console.error(`engine shard ${spec.name} failed`, r.reason);
        this.needFull.add(spec.name);
      }
    });
  }

  private specByName(name: string) {
    return this.specs.find((s) => s.name === name);
  }

  /** The shards a departed row goes to: its own, or every part of a split instrument (copies of a trader's order sit with their followers). */
  private goneTo(row: GoneRow): string[] {
    if ((this.plan.split[row.code] ?? 1) > 1) return shardsOfCode(this.specs, row.code).map((s) => s.name);
    return [shardName(this.plan, row.code, row.userId)];
  }

  /** Services' committed changes, each to the shard holding it (a removal without its instrument to every shard). */
  async apply(changes: EngineChange[]) {
    const byShard = new Map<string, EngineChange[]>();
    const add = (name: string, c: EngineChange) => {
      let list = byShard.get(name);
      if (!list) byShard.set(name, (list = []));
      list.push(c);
    };
    for (const c of changes) {
      if (c.op === "upsert") add(shardName(this.plan, c.order.code, c.order.userId), c);
      else if (c.code !== undefined && c.userId !== undefined)
        for (const name of this.goneTo({ id: c.id, code: c.code, userId: c.userId })) add(name, c);
      else for (const s of this.specs) add(s.name, c);
    }
    const targets = [...byShard.keys()].map((n) => this.specByName(n)).filter((s): s is ShardSpec => s !== undefined);
    await this.each(
      targets,
      (spec) => this.shard(spec.name).apply(spec, byShard.get(spec.name)!),
      (spec, status) => this.state.set(spec.name, status),
    );
  }

  /** Reads what changed in D1 since the last tick (once for every shard), by shard; `more` when a full page of new rows was read. */
  private async catchUp(): Promise<Map<string, Routed> & { more?: boolean }> {
    const routed: Map<string, Routed> & { more?: boolean } = new Map<string, Routed>();
    const to = (name: string) => {
      let r = routed.get(name);
      if (!r) routed.set(name, (r = { open: [], gone: [], options: [], optionsGone: [] }));
      return r;
    };
    try {
      const orders = await this.store.orders(Math.max(1, this.watermark - OVERLAP_MS), this.lastOrderId);
      for (const o of orders.open) to(shardName(this.plan, o.code, o.userId)).open.push(o);
      for (const row of orders.goneRows ?? []) for (const name of this.goneTo(row)) to(name).gone.push(row.id);
      this.watermark = orders.watermark;
      this.lastOrderId = Math.max(this.lastOrderId, orders.lastId ?? 0);
      const options = await this.store.options(Math.max(1, this.optionWatermark - OVERLAP_MS), this.lastOptionId);
      for (const o of options.open) to(shardName(this.plan, o.code, o.userId)).options.push(o);
      for (const row of options.goneRows ?? []) to(shardName(this.plan, row.code, row.userId)).optionsGone.push(row.id);
      this.optionWatermark = options.watermark;
      this.lastOptionId = Math.max(this.lastOptionId, options.lastId ?? 0);
      routed.more = Boolean(orders.more || options.more);
    } catch (error) {
      console.error("engine catch-up failed", error);
    }
    return routed;
  }

  async onTick(tick: TickInput): Promise<TickOutput> {
    this.recent.push(tick);
    if (this.recent.length > RECENT_TICKS) this.recent.splice(0, this.recent.length - RECENT_TICKS);
    const routed = await this.catchUp();
    // a shard is called when rows came for it, it owes the room its follows' parts, or it has
    // work this tick can reach: a quiet one only when a range reaches a trigger or an instant comes
    const watchers = JSON.stringify(tick.watchers ?? []);
    const every = watchers !== this.watchers || tick.time - this.lastEvery >= EVERY_SHARD_MS;
    this.watchers = watchers;
    if (every) this.lastEvery = tick.time;
    const targets = this.specs.filter((s) => {
      if (routed.has(s.name) || this.needFull.has(s.name)) return true;
      const state = this.state.get(s.name);
      if (!state) return true;
      if (state.pending === 0 && !state.copyWork) return false;
      if (every || !state.quiet) return true;
      return reaches(state.quiet, tick);
    });
    this.calls.handed += targets.length;
    this.calls.skipped += this.specs.length - targets.length;
    const userEvents: UserEvent[] = [];
    const live: LivePart[] = [];
    const departed: { id: number; code: string; price: number | null }[] = [];
    const touched = new Set<number>();
    await this.each(
      targets,
      (spec) => {
        const r = routed.get(spec.name);
        const input: ShardTickInput = {
          ...tick,
          ranges: tick.ranges.filter((x) => spec.codes.includes(x.code)),
          orders: { open: r?.open ?? [], gone: r?.gone ?? [] },
          options: { open: r?.options ?? [], gone: r?.optionsGone ?? [] },
          departed: [],
          full: this.needFull.has(spec.name),
          feed: this.feed,
        };
        this.needFull.delete(spec.name);
        return this.shard(spec.name).tick(spec, input);
      },
      (spec, out) => {
        this.state.set(spec.name, { pending: out.pending, triggers: out.triggers, copyWork: out.copyWork, quiet: out.quiet });
        userEvents.push(...out.userEvents);
        live.push(...out.live);
        departed.push(...out.departed);
        for (const [followId, profit] of out.follows) {
          touched.add(followId);
          let by = this.partials.get(followId);
          if (profit === null) {
            by?.delete(spec.name);
            if (by && by.size === 0) this.partials.delete(followId);
            continue;
          }
          if (!by) this.partials.set(followId, (by = new Map()));
          by.set(spec.name, profit);
        }
      },
    );
    userEvents.push(...(await this.cascades(tick.time, departed)));
    userEvents.push(...(await this.copyStops(tick.time, touched)));
    userEvents.push(...liveEvents(live));
    return { userEvents };
  }

  /** A split instrument's trader orders that left on one shard: their copies on its other shards close now, at that price. */
  private async cascades(time: number, departed: { id: number; code: string; price: number | null }[]): Promise<UserEvent[]> {
    const byShard = new Map<string, { id: number; price: number | null }[]>();
    for (const d of departed) {
      if ((this.plan.split[d.code] ?? 1) <= 1) continue; // an unsplit instrument's copies sit on the same shard
      for (const spec of shardsOfCode(this.specs, d.code)) {
        let list = byShard.get(spec.name);
        if (!list) byShard.set(spec.name, (list = []));
        list.push({ id: d.id, price: d.price });
      }
    }
    const events: UserEvent[] = [];
    const targets = [...byShard.keys()].map((n) => this.specByName(n)!);
    await this.each(
      targets,
      (spec) => this.shard(spec.name).cascade(spec, time, byShard.get(spec.name)!),
      (_spec, out) => events.push(...out),
    );
    return events;
  }

  /**
   * The copy stop-loss over shards: the follows whose parts changed this tick and whose summed
   * copy profit is a loss have their limits read; those reached stop copying (paused) and every
   * shard holding their copies closes them at its last prices.
   */
  private async copyStops(time: number, touched: Set<number>): Promise<UserEvent[]> {
    const losing = new Map<number, number>();
    for (const followId of touched) {
      const by = this.partials.get(followId);
      if (!by) continue;
      let total = 0;
      for (const v of by.values()) total += v;
      if (total < 0) losing.set(followId, total);
    }
    if (losing.size === 0) return [];
    let stops: { id: number; copyStopLoss: number }[];
    try {
      stops = await this.store.copyStops([...losing.keys()]);
    } catch (error) {
      console.error("reading copy stop-losses failed", error);
      return [];
    }
    const reached = stops.filter((s) => copyStopReached(losing.get(s.id) ?? 0, s.copyStopLoss)).map((s) => s.id);
    if (reached.length === 0) return [];
    await this.store.pauseFollows(reached);
    const byShard = new Map<string, number[]>();
    for (const followId of reached) {
      for (const name of this.partials.get(followId)?.keys() ?? []) {
        let list = byShard.get(name);
        if (!list) byShard.set(name, (list = []));
        list.push(followId);
      }
    }
    const events: UserEvent[] = [];
    const targets = [...byShard.keys()].map((n) => this.specByName(n)).filter((s): s is ShardSpec => s !== undefined);
    await this.each(
      targets,
      (spec) => this.shard(spec.name).closeFollows(spec, time, byShard.get(spec.name)!),
      (_spec, out) => events.push(...out),
    );
    return events;
  }

  /** The catch-up now, every page of it (orders and options to their shards), and every shard's delivery schedules read again. */
  async reconcile() {
    for (;;) {
      const routed = await this.catchUp();
      await this.each(
        this.specs.filter((s) => routed.has(s.name)),
        (spec) => {
          const r = routed.get(spec.name)!;
          return this.shard(spec.name).absorb(spec, {
            orders: { open: r.open, gone: r.gone },
            options: { open: r.options, gone: r.optionsGone },
          });
        },
        (spec, status) => this.state.set(spec.name, status),
      );
      if (!routed.more) break;
    }
    await this.each(
      this.specs,
      (spec) => this.shard(spec.name).refresh(spec),
      (spec, status) => this.state.set(spec.name, status),
    );
  }

  /** Local runs and tests: every shard's last settlement figures and parked settlements. */
  async details(): Promise<{
    timings: { orders: number; ms: number; kind?: string; shard?: string }[];
    parked: ParkedSettlement[];
    shards: { name: string; pending: number; triggers: number }[];
  }> {
    const timings: { orders: number; ms: number; kind?: string; shard?: string }[] = [];
    const parked: ParkedSettlement[] = [];
    const shards: { name: string; pending: number; triggers: number }[] = [];
    await this.each(
      this.specs,
      (spec) => this.shard(spec.name).view(spec),
      (spec, v) => {
        timings.push(...v.timings.map((t) => ({ ...t, shard: spec.name })));
        parked.push(...v.parked);
        shards.push({ name: spec.name, pending: v.status.pending, triggers: v.status.triggers });
        this.state.set(spec.name, v.status);
      },
    );
    parked.sort((a, b) => a.at - b.at);
    return { timings, parked, shards };
  }

  /** Whether a row of `userId` on `code` belongs to shard `name` (tests). */
  holds(name: string, code: string, userId: number) {
    const spec = this.specByName(name);
    return spec ? holds(spec, code, userId) : false;
  }
}

/** Whether a tick can give a quiet shard work: an instant come, or a range reaching a trigger. */
export function reaches(quiet: ShardQuiet, tick: TickInput): boolean {
  if (quiet.due <= tick.time) return true;
  for (const range of tick.ranges) {
    const b = quiet.codes[range.code];
    if (!b) continue;
    if (b.down !== null && priceToSteps(range.low, b.p) <= b.down) return true;
    if (b.up !== null && priceToSteps(range.high, b.p) >= b.up) return true;
  }
  return false;
}
