/**
 * Live pushes and engine notifications from services, made after their transaction commits:
 *   - publishToUsers: per-user live events (FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE) to
 *     that user's logged-in sockets, whichever LiveRoom shard holds them (one call per shard);
 *   - notifyEngine: committed trigger changes (an order placed, modified, closed, cancelled) to
 *     the market room's engine.
 * Failures are logged, never thrown: pages already show the committed state, the socket only
 * adds to it, and the engine's periodic reconcile repairs a missed notification.
 */
import type { ServiceContext } from "~/context.server";
import type { EngineChange, UserEvent } from "~/domain/engine";
import type { UserTopic } from "~/domain/protocol";
import { LIVE_SHARDS, MARKET_ROOM, liveShardName } from "~/domain/rooms";

export async function publishToUsers(env: Env, events: UserEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const results = await Promise.allSettled(
    Array.from({ length: LIVE_SHARDS }, (_, i) => env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(liveShardName(i))).publishToUsers(events)),
  );
  let delivered = 0;
  for (const r of results) {
    if (r.status === "fulfilled") delivered += r.value;
    else console.error("live publish failed", r.reason);
  }
  return delivered;
}

export function publishToUser(env: Env, userId: number, topic: UserTopic, data: unknown): Promise<number> {
  return publishToUsers(env, [{ userId, topic, data }]);
}

/** Tells the market room's engine about committed trigger changes; answers how many triggers wait (or null on failure). */
export async function notifyEngine(ctx: ServiceContext, changes: EngineChange[]): Promise<number | null> {
  if (changes.length === 0) return 0;
  try {
    return await ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM)).triggersChanged(changes);
  } catch (error) {
    console.error("engine notification failed", error);
    return null;
  }
}
