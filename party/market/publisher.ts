/**
 * The publisher: batched fan-out from the market room to the LiveRoom shards. A tick is sent
 * once to every shard that registered (shards renew every 30 s while they have market
 * subscribers; registrations expire); per-user events go, after the engine's batch has committed,
 * through the services' publishToUsers: to each user's home shard, which forwards to the shards
 * holding the user's other sockets (one rule for the rooms and the services).
 */
import type { UserEvent } from "~/domain/engine";
import type { TickPayload } from "~/domain/protocol";
import { services } from "../services";

/** Shards renew their registration every 30 s while they have subscribers. */
const SHARD_TTL_MS = 120_000;

export class Publisher {
  private shards = new Map<string, number>();

  constructor(private readonly env: Env) {}

  register(shard: string, now = Date.now()) {
    this.shards.set(shard, now);
  }

  unregister(shard: string) {
    this.shards.delete(shard);
  }

  /** Shards listening for market ticks (expired registrations dropped). */
  listeners(now = Date.now()): string[] {
    for (const [name, seen] of this.shards) if (now - seen > SHARD_TTL_MS) this.shards.delete(name);
    return [...this.shards.keys()];
  }

  private shard(name: string) {
    return this.env.LIVE_ROOM.get(this.env.LIVE_ROOM.idFromName(name));
  }

  /** Sends the tick; answers the users watching their live profit (FOREX_TRADE) on any shard. */
  async publishTick(payload: TickPayload, now = Date.now()): Promise<number[]> {
    const names = this.listeners(now);
    const results = await Promise.allSettled(names.map((name) => this.shard(name).receiveTick(payload)));
    const watchers = new Set<number>();
    results.forEach((r, i) => {
      if (r.status === "rejected") console.error(`tick to ${names[i]} failed`, r.reason);
      else for (const id of r.value.watchers) watchers.add(id);
    });
    return [...watchers];
  }

  async publishUserEvents(events: UserEvent[]) {
    if (events.length === 0) return;
    await services().publishToUsers(this.env, events);
  }
}
