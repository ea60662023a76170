/** Room names shared by the Worker, the rooms and the Remix services (no runtime imports here, so Remix bundles stay free of partyserver). */
export const MARKET_ROOM = "main";
/** Sockets spread over LiveRoom shards; one shard until the fan-out needs more. */
export const LIVE_SHARDS = 1;
export const liveShardName = (i: number) => `live-${i}`;
