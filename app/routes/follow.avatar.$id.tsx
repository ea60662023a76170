/**
 * GET /follow/avatar/:id — a trader's picture, public: ONLY an upload of the avatar purpose that a
 * trader has chosen as theirs (any other upload is 404 here whoever asks). Headers:
 * imageResponse, public.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { imageResponse } from "~/lib/http.server";
import { readTraderAvatar } from "~/services/copy/traders.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  return imageResponse(await readTraderAvatar(context, (params.id ?? "").toLowerCase()), "public");
}
