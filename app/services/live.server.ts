/**
 * Live pushes and engine notifications from services, made after their transaction commits:
 *   - publishToUsers: per-user live events (FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE) to
 *     that user's logged-in sockets: one call to each user's home shard (a hash of the user id,
 *     app/domain/rooms.ts), which delivers to its own sockets and forwards to the other shards
 *     that registered a socket of the user with it (docs/decisions/018-scale.md). The services
 *     and the market room's publisher both send through here: one rule;
 *   - notifyEngine: committed trigger changes (an order placed, modified, closed, cancelled) to
 *     the market room's engine.
 * Failures are logged, never thrown: pages already show the committed state, the socket only
 * adds to it, and the engine's periodic reconcile repairs a missed notification.
 */
import type { ServiceContext } from "~/context.server";
import type { EngineChange, UserEvent } from "~/domain/engine";
import type { UserTopic } from "~/domain/protocol";
import { MARKET_ROOM, byHomeShard } from "~/domain/rooms";

export async function publishToUsers(env: Env, events: UserEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const groups = [...byHomeShard(events)];
  const results = await Promise.allSettled(
    groups.map(([name, list]) => env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(name)).publishToUsers(list)),
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
