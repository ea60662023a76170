/**
 * Server rendering. Bots get the whole document at once; browsers get it streamed. The
 * response's CSP nonce goes on every script Remix writes (hydration data, module scripts).
 */
import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { NonceContext } from "~/components/nonce";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY);
  let status = responseStatusCode;
  const nonce = loadContext.nonce;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceContext.Provider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        status = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeout));
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

// The Worker (app/server.ts) and the rooms (party/services.ts) reach the app's services through
// the server build, so the JSON API, the request context, the rooms and the pages share one copy
// of every module (and of its state).
export { handleApi } from "~/api/router.server";
export { createServiceContext } from "~/context.server";
export { createAppContext } from "~/services/app-context.server";
export { ConfigError } from "~/env.server";
export { isCrossSiteWrite, withSecurityHeaders } from "~/lib/http.server";
export { errorResponse } from "~/lib/errors.server";
export { handleDevRequest } from "~/services/dev.server";
export { consumeJobs, runScheduledJobs } from "~/services/jobs.server";
export { socketSessionId, upgradeSessionId } from "~/services/socket-auth.server";
export { publishToUsers } from "~/services/live.server";
export { routeHandles } from "~/i18n/route-handles.server";
export { liveSessions } from "~/services/session.server";
export { forgetInstruments, forgetQuotes, listInstruments, simInstruments } from "~/services/market.server";
export { deliverySchedules, engineOrders } from "~/services/contract/engine.server";
export { settleContracts } from "~/services/contract/settlement.server";
export { engineOptions } from "~/services/option/engine.server";
export { settleOptions } from "~/services/option/settlement.server";
export { closedPrices, copyOrigins, copyStops, openCopies, pauseFollows } from "~/services/copy/engine.server";
export { parkSettlements } from "~/services/engine.server";
