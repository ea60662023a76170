/** News (spec §2 /news): category 1, newest first, paged with plain previous / next links. */
import { data, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate } from "~/components/content";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { Pager } from "~/components/wallet";
import { parsePage } from "~/domain/content";
import { useRootData } from "~/lib/root-data";
import { newsPage, PUBLIC_CACHE } from "~/services/content/pages.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "content", "deposit", "home", "orders", "wallet"] };

export const meta = titled("content.news", { description: "content.news_meta_description" });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const list = await newsPage(context, { page });
  return data(
    {
      page: list.page,
      lastPage: list.last_page,
      items: list.data.map(({ id, title, desc, logo, created_at }) => ({ id, title, desc, logo, createdAt: created_at })),
    },
    { headers: PUBLIC_CACHE },
  );
}

export default function NewsList() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("content.news")} back="/" />
      {d.items.length === 0 ? (
        <EmptyState title={t("content.no_news")} />
      ) : (
        <ul className="news-list">
          {d.items.map((n) => (
            <li key={n.id}>
              <Link to={`/news/detail?id=${n.id}`} className="card news-card">
                {n.logo ? <img src={n.logo} alt="" width={96} height={64} loading="lazy" /> : null}
                <span className="news-text">
                  <strong className="news-title">{n.title}</strong>
                  <span className="muted small">{n.desc}</span>
                  <span className="muted small">
                    <PublishedDate ms={n.createdAt} locale={locale} />
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager page={d.page} lastPage={d.lastPage} href={(p) => `/news?page=${p}`} label={t("content.news_pages")} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
