/**
 * Writing one announcement in one language (?id&lang; no id: a new one, in English first, the fallback of
 * every other language), and deleting it after a confirm page (?confirm=delete). Every save bumps
 * the content cache's counter in its own batch: readers see it on their next request.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { ContentEditor } from "~/components/publish";
import { RouteErrorBoundary } from "~/components/route-error";
import { editorAction, editorLoader } from "~/route-helpers/publish.server";
import contentStylesHref from "~/styles/content.css";
import { pageMeta } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "content", "deposit", "feedback", "publish", "upload", "wallet"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t) => ({ title: d?.item ? d.item.englishTitle : t("publish.new_announcement"), console: true }));

// Function declarations (not calls at module level): the compiler drops them from the browser's bundle.
export function loader(args: LoaderFunctionArgs) {
  return editorLoader("announcement")(args);
}

export function action(args: ActionFunctionArgs) {
  return editorAction("announcement")(args);
}

export default function AdminAnnouncementsEdit() {
  return <ContentEditor />;
}

export const ErrorBoundary = RouteErrorBoundary;
