/**
 * GET /uploads/:id — a private upload, only for its owner and operators (404 alike for a missing
 * id, someone else's file, or a visitor). Headers: imageResponse, private (nosniff, a CSP that
 * forbids any script or plugin, no-store).
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { imageResponse } from "~/lib/http.server";
import { readUpload } from "~/services/uploads.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const viewer = await context.user();
  return imageResponse(await readUpload(context, viewer, params.id ?? ""), "private");
}
