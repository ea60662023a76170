/**
 * GET /uploads/:id — a private upload, only for its owner and operators (404 alike for a missing
 * id, someone else's file, or a visitor). Served as its sniffed image type with nosniff, a CSP
 * that forbids any script or plugin (a crafted image opened directly runs nothing), and no-store.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readUpload } from "~/services/uploads.server";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const viewer = await context.user();
  const found = await readUpload(context, viewer, params.id ?? "");
  if (!found) return new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store", "content-type": "text/plain; charset=utf-8" } });
  return new Response(found.body, {
    headers: {
      "content-type": found.contentType,
      "content-length": String(found.size),
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "content-disposition": "inline",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-origin",
    },
  });
}
