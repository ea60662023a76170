/**
 * EngineShard: one part of the order engine (docs/decisions/018-scale.md, "Engine shards"). It
 * holds the open orders and options of its instruments (for a split instrument, of its users),
 * loaded from D1 page by page when it starts, and settles what the ticks the market room hands it
 * reach. Reachable only by RPC from the market room (never from the Worker's routes). It keeps
 * nothing of its own in storage: D1 is the system of record, so a restart loads again and goes on
 * (every settlement is once-only by its keys in D1).
 */
import { DurableObject } from "cloudflare:workers";
import {
  settleChunkOf,
  type EngineChange,
  type ParkedSettlement,
  type ShardQuiet,
  type ShardTickInput,
  type ShardTickOutput,
  type UserEvent,
} from "~/domain/engine";
import { filterOf, type ShardSpec } from "~/domain/engine-shards";
import { ContractEngine, type EngineStore } from "./market/engine";
import { engineStore } from "./market/store";

/** Local runs and tests: a smaller settlement chunk, and a crash after so many settled chunks. */
interface Faults {
  chunk?: number;
  crashAfterChunks?: number;
}

export interface ShardStatus {
  pending: number;
  triggers: number;
  copyWork: boolean;
  quiet?: ShardQuiet;
}

export class EngineShard extends DurableObject<Env> {
  private engine: ContractEngine | null = null;
  private key = "";
  private faults: Faults = {};

  /** The load under way: every call waits for it (one load, whatever the calls meanwhile). */
  private loading: { key: string; engine: Promise<ContractEngine> } | null = null;

  /**
   * The engine for this spec, loaded once (again when the spec changes, e.g. a new instrument).
   * Not under blockConcurrencyWhile: a shard of a million-order instrument reads its pages for
   * longer than the 30 s the runtime allows that call (it then resets the object, and the load
   * starts again, forever: seen locally, where every shard loads on the one thread at start-up).
   * Every method awaits this first, so no call sees a half-loaded engine.
   */
  private ready(spec: ShardSpec): Promise<ContractEngine> {
    const key = JSON.stringify(spec);
    if (this.engine && this.key === key) return Promise.resolve(this.engine);
    if (this.loading?.key === key) return this.loading.engine;
    const engine = new ContractEngine(this.store(), {
      filter: filterOf(spec),
      chunk: this.faults.chunk ?? settleChunkOf(this.env.ENGINE_SETTLE_CHUNK),
    });
    const loading = { key, engine: engine.load().then(() => engine) };
    this.loading = loading;
    loading.engine.then(
      () => {
        if (this.loading !== loading) return; // a newer spec or a fault injection came meanwhile
        this.engine = engine;
        this.key = key;
        this.loading = null;
      },
      () => {
        if (this.loading === loading) this.loading = null; // the next call tries again
      },
    );
    return loading.engine;
  }

  private store(): EngineStore {
    const store = engineStore(this.env);
    const crashAfter = this.faults.crashAfterChunks;
    if (crashAfter === undefined) return store;
    let settled = 0;
    return {
      ...store,
      settle: async (req) => {
        const result = await store.settle(req);
        if (++settled >= crashAfter) {
          this.faults = {};
          this.engine = null;
          this.loading = null;
          // the object is thrown away mid-cascade, as a crash or an eviction would
          this.ctx.abort("crash injected by a test");
        }
        return result;
      },
    };
  }

  private status(engine: ContractEngine): ShardStatus {
    return { pending: engine.pending(), triggers: engine.triggers(), copyWork: engine.copyWorkWaiting(), quiet: engine.quiet() };
  }

  /** Loads (if it has not) and answers what waits here. */
  async wake(spec: ShardSpec): Promise<ShardStatus> {
    return this.status(await this.ready(spec));
  }

  async tick(spec: ShardSpec, input: ShardTickInput): Promise<ShardTickOutput> {
    const engine = await this.ready(spec);
    engine.feed = input.feed;
    return engine.shardTick(input);
  }

  async apply(spec: ShardSpec, changes: EngineChange[]): Promise<ShardStatus> {
    const engine = await this.ready(spec);
    engine.apply(changes);
    return this.status(engine);
  }

  /** Rows the room's catch-up read for this shard outside a tick (a reconcile). */
  async absorb(spec: ShardSpec, rows: { orders: ShardTickInput["orders"]; options: ShardTickInput["options"] }): Promise<ShardStatus> {
    const engine = await this.ready(spec);
    engine.absorb(rows.orders.open, rows.orders.gone);
    engine.absorbOptions(rows.options.open, rows.options.gone);
    return this.status(engine);
  }

  /** Trader orders that left on another shard of a split instrument: their copies here close at that price. */
  async cascade(spec: ShardSpec, time: number, departed: { id: number; price: number | null }[]): Promise<UserEvent[]> {
    return (await this.ready(spec)).cascadeFrom(time, departed);
  }

  /** Follows whose copy stop-loss the room found reached: their copies here close. */
  async closeFollows(spec: ShardSpec, time: number, followIds: number[]): Promise<UserEvent[]> {
    return (await this.ready(spec)).closeFollows(time, followIds);
  }

  /** Delivery schedules read again (the periodic reconcile, or an operator's change). */
  async refresh(spec: ShardSpec): Promise<ShardStatus> {
    const engine = await this.ready(spec);
    await engine.refreshSchedules();
    return this.status(engine);
  }

  /** Local runs and tests only: the figures /dev/engine shows. */
  async view(
    spec: ShardSpec,
  ): Promise<{ timings: { orders: number; ms: number; kind?: string }[]; parked: ParkedSettlement[]; status: ShardStatus }> {
    this.localOnly();
    const engine = await this.ready(spec);
    return { timings: engine.timings, parked: engine.parked, status: this.status(engine) };
  }

  /** Local runs and tests only: a small settlement chunk and a crash after `crashAfterChunks` settled chunks (the next call loads again). */
  async injectFaults(faults: Faults) {
    this.localOnly();
    this.faults = faults;
    this.engine = null;
    this.loading = null;
    return true;
  }

  private localOnly() {
    if (this.env.ENVIRONMENT !== "local") throw new Error("local runs and tests only");
  }
}
