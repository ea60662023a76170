/** The operator's news: every item with the languages written, and a link to write a new one (English first). */
import type { LinksFunction } from "@remix-run/cloudflare";
import { ContentList } from "~/components/publish";
import { RouteErrorBoundary } from "~/components/route-error";
import { listLoader } from "~/lib/publish.server";
import contentStylesHref from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const loader = listLoader("news");

export default function AdminNews() {
  return <ContentList />;
}

export const ErrorBoundary = RouteErrorBoundary;
