/**
 * A language's whole messages as JSON (issue 22, messages by route): the browser fetches them once
 * its first page is idle, for the pages it navigates to (app/i18n/react.tsx). Public, the same for
 * everyone: with the current version (?v=, the hash the root's data names) it is cached for good;
 * any other address is answered briefly cacheable.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { normalizeLanguage } from "~/i18n/config";
import { messagesJsonFor, messagesVersion } from "~/i18n/i18n.server";
import { PUBLIC_ASSET_HEADER } from "~/lib/http.server";

export function loader({ params, request }: LoaderFunctionArgs) {
  const lang = normalizeLanguage(params.lang);
  if (!lang || params.lang !== lang) throw new Response("Not found", { status: 404, headers: { "Cache-Control": "public, max-age=300" } });
  const current = new URL(request.url).searchParams.get("v") === messagesVersion(lang);
  return new Response(messagesJsonFor(lang), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
      [PUBLIC_ASSET_HEADER]: "1",
    },
  });
}
