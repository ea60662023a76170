/**
 * The Worker: one entry, three doors (docs: ARCHITECTURE.md).
 *   /v2/ws               → a LiveRoom shard (spec §4 socket), the only public socket: a signed-in
 *                          upgrade goes to its user's home shard, an anonymous one to any shard
 *   /api/*, /v2/api/*    → the JSON API of spec §7
 *   everything else      → Remix (pages, loaders, form actions)
 * Rooms are reachable only through /v2/ws and through RPC from this Worker and each other:
 * /parties/* answers 404. Static files (public/, including the Remix client build) are served
 * before the Worker runs, with the headers of public/_headers.
 *
 * Every response leaves through withSecurityHeaders; clients never see error text.
 */
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/cloudflare";
// The server build is produced by `remix build` (run before `wrangler dev`, deploy and tests).
// @ts-expect-error -- no type declarations for the generated bundle
import * as remixBuild from "../build/index.js";
import type * as AppEntry from "./entry.server";
import { shardForSocket } from "~/domain/rooms";
import { desktopRedirect } from "~/lib/redirect";
import { provideServices } from "../party/services";
export { MarketRoom } from "../party/market-room";
export { LiveRoom } from "../party/live-room";
export { EngineShard } from "../party/engine-shard";

const build = remixBuild as unknown as ServerBuild;
const handleRemixRequest = createRequestHandler(build);
const app = build.entry.module as unknown as typeof AppEntry;
provideServices(app);

/** Headers a socket upgrade passes on to the room; everything else (x-partykit-* included) stays out. */
const SOCKET_HEADERS = [
  "upgrade",
  "connection",
  "sec-websocket-key",
  "sec-websocket-version",
  "sec-websocket-protocol",
  "sec-websocket-extensions",
  "user-agent",
];

/**
 * Which user a socket upgrade belongs to (session cookie or authorization header), for routing
 * only: one D1 read of the session (the socket still logs in with its login frame). Not batched
 * across upgrades: each request waits on its own query (workerd cancels a promise that another
 * request's timer resolves).
 */
async function upgradeUser(request: Request, env: Env): Promise<number | null> {
  if (!request.headers.has("cookie") && !request.headers.has("authorization")) return null;
  try {
    const sessionId = await app.upgradeSessionId(request, env);
    return sessionId ? ((await app.liveSessions(env.DB, [sessionId])).get(sessionId) ?? null) : null;
  } catch (error) {
    console.error("socket upgrade session lookup failed", error);
    return null; // routed as an anonymous socket; its login frame still works
  }
}

function plain(status: number, text: string, https: boolean) {
  return app.withSecurityHeaders(new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } }), { https });
}

async function openSocket(request: Request, env: Env, url: URL): Promise<Response> {
  const https = url.protocol === "https:";
  if (request.method !== "GET" || request.headers.get("upgrade")?.toLowerCase() !== "websocket")
    return plain(426, "Expected a WebSocket upgrade", https);
  // A page of another site may not open a socket in a visitor's name.
  const origin = request.headers.get("origin");
  if (origin && origin !== url.origin) return plain(403, "Forbidden", https);
  const headers = new Headers();
  for (const name of SOCKET_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const shard = shardForSocket(await upgradeUser(request, env), Math.random());
  const room = env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(shard));
  const response = await room.fetch(new Request(`${url.origin}/v2/ws`, { headers }));
  return response.status === 101 ? response : plain(400, "Bad request", https);
}

async function fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  const https = url.protocol === "https:";
  let context: Awaited<ReturnType<typeof app.createAppContext>> | null = null;
  try {
    if (url.pathname === "/v2/ws") return await openSocket(request, env, url);
    if (url.pathname === "/parties" || url.pathname.startsWith("/parties/")) return plain(404, "Not found", https);
    if (app.isCrossSiteWrite(request)) return plain(403, "Cross-site request refused", https);
    try {
      context = await app.createAppContext(request, env, ctx);
    } catch (error) {
      if (error instanceof app.ConfigError) {
        console.error(`configuration error: ${error.message}`);
        return plain(503, "Service unavailable", https);
      }
      throw error;
    }
    const done = async (response: Response) =>
      app.withSecurityHeaders(response, { nonce: context!.nonce, private: Boolean(await context!.token()), https });
    // The desktop site (spec §9): with a pc host configured, desktop browsers' page requests go there.
    const pcHost = context.config.pcHost;
    const desktop = desktopRedirect({ url, method: request.method, userAgent: request.headers.get("user-agent") }, pcHost);
    if (desktop)
      return await done(
        new Response(null, { status: 302, headers: { location: desktop, "cache-control": "private, no-store", vary: "User-Agent" } }),
      );
    if (context.config.isLocal) {
      const dev = await app.handleDevRequest(request, context);
      if (dev) return await done(dev);
    }
    if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/v2/api/")) {
      const api = await app.handleApi(request, context);
      if (api) return await done(api);
    }
    // a page's document (not its data, `.data`): the root sends only its routes' message sections
    if (!url.pathname.endsWith(".data")) context.pageHandles = app.routeHandles(build.routes, url.pathname);
    return await done(await handleRemixRequest(request, context as AppLoadContext));
  } catch (error) {
    if (error instanceof Response) return app.withSecurityHeaders(error, { https });
    console.error("unhandled error", error);
    return app.withSecurityHeaders(app.errorResponse(request, context), { https, private: true });
  }
}

/** Cron triggers (wrangler.toml [triggers]): the jobs run to completion inside the handler. */
async function scheduled(controller: ScheduledController, env: Env) {
  await app.runScheduledJobs(env, controller.cron, controller.scheduledTime);
}

/** Queue consumer (wrangler.toml [[queues.consumers]]): the chunks of daily jobs, and their dead letters. */
async function queue(batch: MessageBatch<unknown>, env: Env) {
  await app.consumeJobs(batch, env);
}

export default { fetch, scheduled, queue } satisfies ExportedHandler<Env>;
