/**
 * The offline page (issue 22): the service worker (public/sw.js) keeps one copy per language and
 * shows it when a page cannot load for want of a network. It is the same for everyone who reads
 * its language (/offline?lng=xx; the root's data holds nothing of the visitor on this path), so
 * any cache may keep it, and it carries no script: it needs none, and offline none could load.
 */
import { redirect, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useTranslation } from "~/i18n/react";
import { RouteErrorBoundary } from "~/components/route-error";
import { normalizeLanguage } from "~/i18n/config";
import { PUBLIC_ASSET_HEADER } from "~/lib/http.server";
import { titled } from "~/lib/meta";
import { OFFLINE_PATH } from "~/route-helpers/root.server";

export const meta = titled("offline.title");

/** The root leaves out every script on this page (app/root.tsx). */
export const handle = { scripts: false, i18n: ["admin", "offline"] };

/** Public for everyone, signed in or not (a copy is kept ten minutes by any cache: one deploy's stylesheet). */
export const headers: HeadersFunction = () => ({ "Cache-Control": "public, max-age=600", [PUBLIC_ASSET_HEADER]: "1" });

export function loader({ request, context }: LoaderFunctionArgs) {
  // without a language of its own, the visitor's (cookie, Accept-Language): a page of its own URL
  if (!normalizeLanguage(new URL(request.url).searchParams.get("lng")))
    throw redirect(`${OFFLINE_PATH}?lng=${context.lang}`, { headers: { "Cache-Control": "private, no-store" } });
  return null;
}

export default function Offline() {
  const { t } = useTranslation();
  return (
    <div className="page narrow error-page">
      <h1>{t("offline.title")}</h1>
      <p className="muted">{t("offline.text")}</p>
      <p>
        {/* a plain link: a full page load, answered by the network (or by this page again) */}
        <a className="button primary" href="/">
          {t("offline.retry")}
        </a>
      </p>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
