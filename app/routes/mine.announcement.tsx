/** Announcements (spec §2 /mine/announcement): newest first, each opening in place (details/summary, no script needed). */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate, TextBody } from "~/components/content";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { textParagraphs } from "~/domain/content";
import { useRootData } from "~/lib/root-data";
import { announcementList } from "~/services/content/pages.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "content", "deposit", "user", "wallet"] };

export const meta = titled("user.announcements");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export async function loader({ context }: LoaderFunctionArgs) {
  const items = await announcementList(context);
  return { items: items.map((a) => ({ id: a.id, title: a.title, createdAt: a.created_at, paragraphs: textParagraphs(a.content) })) };
}

export default function Announcements() {
  const { t } = useTranslation();
  const { items } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("user.announcements")} back="/user" />
      {items.length === 0 ? (
        <EmptyState title={t("content.no_announcements")} />
      ) : (
        <ul className="announcement-list">
          {items.map((a) => (
            <li key={a.id}>
              <details className="card announcement">
                <summary>
                  <span className="announcement-title">{a.title}</span>
                  <span className="muted small">
                    <PublishedDate ms={a.createdAt} locale={locale} />
                  </span>
                </summary>
                <TextBody paragraphs={a.paragraphs} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
