/**
 * The answer to an unexpected failure: a status and a translated message, never error text
 * (details go to the log). JSON calls get the spec §8 envelope; pages a minimal document.
 */
import { ApiCode } from "~/lib/api-code";
import { envelope } from "~/lib/http.server";

const FALLBACK = "Something went wrong. Please try again.";

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function errorResponse(request: Request, ctx: { t: (key: string) => string; lang?: string } | null, status = 500): Response {
  const path = new URL(request.url).pathname;
  const message = ctx ? ctx.t("errors.try_again") : FALLBACK;
  if (path.startsWith("/api/") || path.startsWith("/v2/api/")) return envelope(ApiCode.Error, message, null, status);
  const home = ctx ? ctx.t("common.home") : "Home";
  const html = `<!doctype html><html lang="${escapeHtml(ctx?.lang ?? "en")}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bourse</title></head><body><main><h1>${escapeHtml(message)}</h1><p><a href="/">${escapeHtml(home)}</a></p></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
