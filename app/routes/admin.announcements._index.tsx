/** The operator's announcements: every item with the languages written, and a link to write a new one (English first). */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ContentList } from "~/components/publish";
import { RouteErrorBoundary } from "~/components/route-error";
import { listLoader } from "~/route-helpers/publish.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "content", "deposit", "feedback", "publish", "upload", "wallet"] };

export const meta = titled("publish.announcements", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

// Function declarations (not calls at module level): the compiler drops them from the browser's bundle.
export function loader(args: LoaderFunctionArgs) {
  return listLoader("announcement")(args);
}

export default function AdminAnnouncements() {
  return <ContentList />;
}

export const ErrorBoundary = RouteErrorBoundary;
