/** Copy trading home (spec §2): a trader goes to their followers, anyone else to the application guide. */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { RouteErrorBoundary } from "~/components/route-error";
import { isTrader } from "~/services/copy/queries.server";
import { requireUser } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin"] };

export const meta = titled("tabs.follow");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  // read from the database: a cached session may be older than the approval
  throw redirect((await isTrader(context, user.id)) ? "/follow/my-follower" : "/follow/trader-apply");
}

export default function Follow() {
  return null;
}

export const ErrorBoundary = RouteErrorBoundary;
