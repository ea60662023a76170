/** Room names shared by the Worker, the rooms and the Remix services (no runtime imports here, so Remix bundles stay free of partyserver). */
export const MARKET_ROOM = "main";
/**
 * Sockets spread over this many LiveRoom shards (docs/decisions/018-scale.md, "Socket shards by
 * user"). More than one by default, so local runs and tests exercise the routing between them.
 */
export const LIVE_SHARDS = 4;
export const liveShardName = (i: number) => `live-${i}`;

/**
 * The shard index of a user: a stable hash of the user id (murmur3's 32-bit finaliser, so
 * consecutive ids spread evenly), modulo the shard count. Pure and the same in every isolate.
 */
export function liveShardOf(userId: number, shards = LIVE_SHARDS): number {
  let h = userId >>> 0;
  h ^= Math.floor(userId / 0x1_0000_0000) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return (h >>> 0) % shards;
}

/** The home shard of a user: where a signed-in upgrade lands and where the user's events are sent. */
export const homeShard = (userId: number, shards = LIVE_SHARDS) => liveShardName(liveShardOf(userId, shards));

/** The shard of a new socket: its user's home shard, or any shard (`random` in [0, 1)) for an anonymous one. */
export function shardForSocket(userId: number | null, random: number, shards = LIVE_SHARDS): string {
  return userId ? homeShard(userId, shards) : liveShardName(Math.min(shards - 1, Math.floor(random * shards)));
}

/** Per-user events grouped by their users' home shards (one call per shard). */
export function byHomeShard<E extends { userId: number }>(events: E[], shards = LIVE_SHARDS): Map<string, E[]> {
  const out = new Map<string, E[]>();
  for (const e of events) {
    const name = homeShard(e.userId, shards);
    const list = out.get(name);
    if (list) list.push(e);
    else out.set(name, [e]);
  }
  return out;
}
