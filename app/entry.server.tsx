/**
 * Server rendering. Bots get the whole document at once; browsers get it streamed.
 */
import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY);
  let status = responseStatusCode;
  const body = await renderToReadableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
    signal: controller.signal,
    onError(error: unknown) {
      if (!controller.signal.aborted) console.error(error);
      status = 500;
    },
  });
  body.allReady.then(() => clearTimeout(timeout));
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

// The Worker (app/server.ts) reaches the app's services through the server build, so the JSON
// API, the request context and the pages share one copy of every module (and of its state).
export { handleApi } from "~/api/router.server";
export { createAppContext } from "~/context.server";
export { ConfigError } from "~/env.server";
export { isCrossSiteWrite, withSecurityHeaders } from "~/lib/http.server";
export { outboxMessages } from "~/services/notify.server";
export { handleScriptedPrice } from "~/services/dev-market.server";
