/**
 * The engine's access to D1 through the services (party/services.ts), one service context for
 * the object's life (it holds no request state). Used by the market room (its catch-up, the copy
 * stop-loss) and by every engine shard (its start, its settlements).
 */
import { LOAD_PAGE } from "~/domain/engine";
import { services } from "../services";
import type { EngineStore } from "./engine";

export function engineStore(env: Env): Required<EngineStore> {
  const app = services();
  let shared: ReturnType<typeof app.createServiceContext> | null = null;
  const ctx = () => (shared ??= app.createServiceContext(env));
  return {
    orders: async (since, afterId, filter) => app.engineOrders(await ctx(), since, afterId, LOAD_PAGE, filter),
    schedules: async (now) => app.deliverySchedules(await ctx(), now),
    settle: async (req) => app.settleContracts(await ctx(), req),
    options: async (since, afterId, filter) => app.engineOptions(await ctx(), since, afterId, LOAD_PAGE, filter),
    settleOptions: async (req) => app.settleOptions(await ctx(), req),
    copyOrigins: async (ids) => app.copyOrigins(await ctx(), ids),
    openCopies: async (origin, now) => app.openCopies(await ctx(), origin, now),
    closedPrices: async (ids) => app.closedPrices(await ctx(), ids),
    copyStops: async (ids) => app.copyStops(await ctx(), ids),
    pauseFollows: async (ids) => app.pauseFollows(await ctx(), ids),
    park: async (items) => app.parkSettlements(await ctx(), items),
  };
}
