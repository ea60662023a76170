/** One news item (spec §2 /news/detail?id): title, date, picture, body as text paragraphs. */
import { data, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate, TextBody } from "~/components/content";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { parseId, textParagraphs } from "~/domain/content";
import { useRootData } from "~/lib/root-data";
import { pageMeta } from "~/lib/meta";
import { newsItem, PUBLIC_CACHE } from "~/services/content/pages.server";
import contentStylesHref from "~/styles/content.css";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "content", "deposit", "wallet"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t) => ({
    title: d?.item.title || t("content.news"),
    description: d?.item.summary || t("content.news_meta_description"),
  }));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = parseId(new URL(request.url).searchParams.get("id"));
  const item = id === null ? null : await newsItem(context, id);
  if (!item) throw new Response("Not found", { status: 404 });
  return data(
    {
      item: {
        id: item.id,
        title: item.title,
        summary: item.desc,
        logo: item.logo,
        paragraphs: textParagraphs(item.content),
        createdAt: item.created_at,
      },
    },
    { headers: PUBLIC_CACHE },
  );
}

export default function NewsDetail() {
  const { t } = useTranslation();
  const { item } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("content.news")} back="/news" />
      <article className="card news-article">
        <h2 className="news-title">{item.title}</h2>
        <p className="muted small">
          <PublishedDate ms={item.createdAt} locale={locale} />
        </p>
        {item.logo ? <img className="news-image" src={item.logo} alt="" /> : null}
        <TextBody paragraphs={item.paragraphs} />
      </article>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
