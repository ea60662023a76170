/**
 * Support chat (spec §7): by the company's service_link_type, the link in a dialog page with a
 * copy button (2), a redirect to the link (3, http/https only), or the embedded chat frame told
 * the user's clientid and {uid, email} metadata. The frame's host alone is allowed by this
 * response's CSP (frame-src), through the FRAME_SRC_HEADER the Worker consumes.
 */
import { data, redirect, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { SupportLink } from "~/components/content";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { FRAME_SRC_HEADER } from "~/lib/http.server";
import { supportChat } from "~/services/content/pages.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "content", "deposit", "user", "wallet"] };

export const meta = titled("user.chat");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const h = new Headers();
  const frame = loaderHeaders.get(FRAME_SRC_HEADER);
  if (frame) h.set(FRAME_SRC_HEADER, frame);
  return h;
};

export async function loader({ context }: LoaderFunctionArgs) {
  const user = await context.user();
  const target = await supportChat(context, user ? { uid: user.uid, email: user.email } : null);
  if (target.kind === "navigate") throw redirect(target.link);
  if (target.kind === "dialog") return data({ mode: "dialog" as const, link: target.link, src: null });
  return data(
    { mode: "frame" as const, link: null, src: target.src },
    { headers: target.origin ? { [FRAME_SRC_HEADER]: target.origin } : {} },
  );
}

export default function SupportChat() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page content-page chat-page">
      <PageHeader title={t("user.chat")} back="/user" />
      {d.mode === "dialog" && d.link ? (
        <section className="card chat-link-card" role="dialog" aria-labelledby="chat-link-title">
          <h2 id="chat-link-title">{t("content.chat_title")}</h2>
          <p className="muted">{t("content.chat_dialog_text")}</p>
          <SupportLink link={d.link} />
        </section>
      ) : d.src ? (
        <iframe
          className="chat-frame"
          src={d.src}
          title={t("content.chat_frame")}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
          referrerPolicy="origin"
        />
      ) : (
        <EmptyState title={t("content.chat_unavailable")}>
          <Link to="/mine/email" className="button primary">
            {t("user.company_email")}
          </Link>
        </EmptyState>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
