/**
 * GET /news/image/:id — a news picture, public: ONLY an upload of the news-image purpose, stored
 * by an operator and used by a news item (any other upload, e.g. an identity document, is 404
 * here whoever asks). Uploads never change under their id: cached for a year, immutable, even
 * for signed-in viewers; served as its sniffed type with nosniff and the sandboxing CSP.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { PUBLIC_ASSET_HEADER } from "~/lib/http.server";
import { readNewsImage } from "~/services/content.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await readNewsImage(context, (params.id ?? "").toLowerCase());
  if (!found) return new Response("Not Found", { status: 404, headers: { "cache-control": "no-cache", "content-type": "text/plain; charset=utf-8" } });
  return new Response(found.body, {
    headers: {
      "content-type": found.contentType,
      "content-length": String(found.size),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-disposition": "inline",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-origin",
      [PUBLIC_ASSET_HEADER]: "1",
    },
  });
}
