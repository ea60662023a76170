/**
 * The one function through which services publish per-user live events (FOREX_TRADE,
 * FOREX_CLOSED, FOREX_FOLLOW_TRADE): every LiveRoom shard delivers the frame to that user's
 * logged-in sockets that subscribed to the topic. Failures are logged, never thrown: live
 * updates only add to what pages already render.
 */
import { LIVE_SHARDS, liveShardName } from "../../party/names";
import type { UserTopic } from "../../party/protocol";

export async function publishToUser(env: Env, userId: number, topic: UserTopic, data: unknown): Promise<number> {
  const results = await Promise.allSettled(
    Array.from({ length: LIVE_SHARDS }, (_, i) => env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(liveShardName(i))).publishToUser(userId, topic, data)),
  );
  let delivered = 0;
  for (const r of results) {
    if (r.status === "fulfilled") delivered += r.value;
    else console.error("live publish failed", r.reason);
  }
  return delivered;
}
