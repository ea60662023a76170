/** Any other path under /admin: 404 for everyone (the catch-all redirect to / does not apply here). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { RouteErrorBoundary } from "~/components/route-error";
import { requireOperator } from "~/services/operator.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin"] };

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
}

export const meta = titled("errors.not_found", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  await requireOperator(context);
  throw notFound();
}

export async function action({ context }: ActionFunctionArgs) {
  await requireOperator(context);
  throw notFound();
}

export default function AdminNotFound() {
  return null;
}

export const ErrorBoundary = RouteErrorBoundary;
