/**
 * Writing one announcement in one language (?id&lang; no id: a new one, in English first, the fallback of
 * every other language), and deleting it after a confirm page (?confirm=delete). Every save bumps
 * the content cache's counter in its own batch: readers see it on their next request.
 */
import type { LinksFunction } from "@remix-run/cloudflare";
import { ContentEditor } from "~/components/publish";
import { RouteErrorBoundary } from "~/components/route-error";
import { editorAction, editorLoader } from "~/lib/publish.server";
import contentStylesHref from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const loader = editorLoader("announcement");
export const action = editorAction("announcement");

export default function AdminAnnouncementsEdit() {
  return <ContentEditor />;
}

export const ErrorBoundary = RouteErrorBoundary;
