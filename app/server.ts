/**
 * The Worker: one entry, three doors (docs: ARCHITECTURE.md).
 *   /v2/ws               → a LiveRoom shard (spec §4 socket)
 *   /parties/*           → partyserver rooms
 *   /api/*, /v2/api/*    → the JSON API of spec §7
 *   everything else      → Remix (pages, loaders, form actions)
 * Static files (public/, including the Remix client build) are served before the Worker runs.
 */
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/cloudflare";
import { getServerByName, routePartykitRequest } from "partyserver";
// The server build is produced by `remix build` (run before `wrangler dev`, deploy and tests).
// @ts-expect-error -- no type declarations for the generated bundle
import * as remixBuild from "../build/index.js";
import type * as AppEntry from "./entry.server";
import { LIVE_SHARDS, liveShardName } from "../party/names";
export { MarketRoom } from "../party/market-room";
export { LiveRoom } from "../party/live-room";

const build = remixBuild as unknown as ServerBuild;
const handleRemixRequest = createRequestHandler(build);
const { handleApi, createAppContext, ConfigError, isCrossSiteWrite, withSecurityHeaders, outboxMessages, handleScriptedPrice } =
  build.entry.module as unknown as typeof AppEntry;


async function fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/v2/ws") {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const shard = liveShardName(Math.floor(Math.random() * LIVE_SHARDS));
    const room = await getServerByName(env.LIVE_ROOM, shard);
    return room.fetch(request);
  }
  const party = await routePartykitRequest(request, env);
  if (party) return party;

  if (isCrossSiteWrite(request)) {
    return new Response("Cross-site request refused", { status: 403, headers: { "content-type": "text/plain" } });
  }
  let context;
  try {
    context = await createAppContext(request, env, ctx);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      return new Response("Service misconfigured", { status: 503 });
    }
    throw error;
  }
  if (url.pathname === "/dev/outbox" && context.config.isLocal && (request.headers.get("accept") ?? "").includes("application/json")) {
    return Response.json({ messages: await outboxMessages(context.d1) }, { headers: { "cache-control": "no-store" } });
  }
  if (url.pathname === "/dev/market/price" && context.config.isLocal) {
    return handleScriptedPrice(request, context);
  }
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/v2/api/")) {
    try {
      const api = await handleApi(request, context);
      if (api) return withSecurityHeaders(api, request);
    } catch (error) {
      console.error("api error", error);
      return Response.json({ code: 0, msg: context.t("errors.try_again"), data: null }, { status: 500 });
    }
  }
  return withSecurityHeaders(await handleRemixRequest(request, context as AppLoadContext), request);
}

export default { fetch } satisfies ExportedHandler<Env>;
