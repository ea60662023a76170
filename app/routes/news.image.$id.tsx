/**
 * GET /news/image/:id — a news picture, public: ONLY an upload of the news-image purpose, stored
 * by an operator and used by a news item (any other upload, e.g. an identity document, is 404
 * here whoever asks). Headers: imageResponse, public.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { imageResponse } from "~/lib/http.server";
import { readNewsImage } from "~/services/content/editor.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  return imageResponse(await readNewsImage(context, (params.id ?? "").toLowerCase()), "public");
}
