import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useNavigate,
  useRouteError,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { TAB_PATHS, TabBar } from "~/components/layout";
import { I18nProvider } from "~/i18n/react";
import { isAbortError } from "~/lib/abort";
import { useRootData, useServes } from "~/lib/root-data";
import { rootMessages, translateMessage } from "~/lib/messages";
import { LiveProvider, StaleRefresher } from "~/components/live";
import type { Flash } from "~/services/web.server";
import type { Theme } from "~/services/preferences.server";
import type { loader } from "~/route-helpers/root.server";
import { useNonce } from "~/components/nonce";
import { legacyHashPath } from "~/domain/content";
import { useServiceWorker } from "~/components/service-worker";
import stylesHref from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export const meta: MetaFunction = () => [{ title: "Bourse" }];

// The loader lives in a server module: none of its imports (services, the language table, the
// startup and address rules) reaches the browser bundle that every page loads.
export { loader } from "~/route-helpers/root.server";

type LoaderData = Awaited<ReturnType<typeof loader>>["data"];

declare module "~/lib/root-data" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loader's data is the whole shape
  interface RootData extends LoaderData {}
}

function Toast({ flash }: { flash: Flash | null }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(flash);
  useEffect(() => {
    setShown(flash);
    if (!flash) return;
    const timer = setTimeout(() => setShown(null), 4000);
    return () => clearTimeout(timer);
  }, [flash]);
  if (!shown) return null;
  return (
    <div className={`toast toast-${shown.kind}`} role={shown.kind === "error" ? "alert" : "status"} aria-live="polite">
      {translateMessage(t, shown.message)}
    </div>
  );
}

/**
 * Links in the spec's older form (origin + '/#/register?invite_code=…') reach the server as '/'
 * (browsers never send the fragment): once hydrated, the page goes to the path the fragment names.
 */
function LegacyHashLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const path = legacyHashPath(window.location.hash);
    if (path) navigate(path, { replace: true });
  }, [navigate]);
  return null;
}

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t("common.skip_to_content")}
    </a>
  );
}

/** The desktop site's layout width: on the pc host every device lays the page out as a desktop does. */
const DESKTOP_VIEWPORT = "width=1280, viewport-fit=cover";

function Document({
  children,
  lang,
  dir,
  theme,
  desktop = false,
  scripts = true,
}: {
  children: React.ReactNode;
  lang: string;
  dir: "ltr" | "rtl";
  theme: Theme | null;
  desktop?: boolean;
  /** false: a page without any script (the offline page: a route's `handle = { scripts: false }`). */
  scripts?: boolean;
}) {
  const nonce = useNonce();
  return (
    <html lang={lang} dir={dir} data-theme={theme ?? undefined} data-site={desktop ? "pc" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content={desktop ? DESKTOP_VIEWPORT : "width=device-width, initial-scale=1, viewport-fit=cover"} />
        <meta name="color-scheme" content={theme ?? "light dark"} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {scripts ? <ScrollRestoration nonce={nonce} /> : null}
        {scripts ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  );
}

export default function App() {
  const root = useRootData()!;
  const location = useLocation();
  const served = useServes();
  // upstream mode before its areas are served: one tab is no tab bar (components/layout.tsx)
  const withTabs = TAB_PATHS.includes(location.pathname) && TAB_PATHS.filter(served).length > 1;
  const scripts = !useMatches().some((m) => (m.handle as { scripts?: boolean } | undefined)?.scripts === false);
  useServiceWorker(root.lang);
  return (
    <Document lang={root.htmlLang} dir={root.dir} theme={root.theme} desktop={root.desktopSite} scripts={scripts}>
      <I18nProvider lang={root.lang} messages={rootMessages(root)} version={root.messagesVersion}>
        <LiveProvider ticket={root.socketTicket}>
          <StaleRefresher />
          <LegacyHashLinks />
          <SkipLink />
          <div className={withTabs ? "app with-tabs" : "app"}>
            {withTabs ? <TabBar /> : null}
            <main id="main" className="main">
              <Outlet />
            </main>
          </div>
          <Toast flash={root.flash} />
        </LiveProvider>
      </I18nProvider>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRootData();
  const lang = root?.lang ?? "en";
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const messages = rootMessages(root) as Record<string, Record<string, string> | undefined>;
  const text = (k: string, fallback: string) => messages.errors?.[k] ?? fallback;
  if (isAbortError(error)) {
    // an interrupted navigation (the user started another): not an error; the next page renders
    return (
      <Document lang={root?.htmlLang ?? lang} dir={root?.dir ?? "ltr"} theme={root?.theme ?? null}>
        <main id="main" className="main" aria-busy="true">
          <p className="muted">{messages.common?.loading ?? "Loading…"}</p>
        </main>
      </Document>
    );
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  if (isRouteErrorResponse(error) && error.status === 503 && isClosedPage(error.data)) {
    // Spec §4: the company is closed and has no loss_url to send visitors to.
    return (
      <Document lang={error.data.htmlLang} dir={error.data.dir} theme={root?.theme ?? null}>
        <main id="main" className="main error-page">
          <h1>{error.data.title}</h1>
          <p>{error.data.text}</p>
        </main>
      </Document>
    );
  }
  return (
    <Document lang={root?.htmlLang ?? lang} dir={root?.dir ?? "ltr"} theme={root?.theme ?? null}>
      <main id="main" className="main error-page">
        <h1>{status === 404 ? text("not_found", "Not found") : text("try_again", "Something went wrong. Please try again.")}</h1>
        <p>
          <a className="button primary" href="/">
            {messages.common?.home ?? "Home"}
          </a>
        </p>
      </main>
    </Document>
  );
}

interface ClosedPage {
  closed: true;
  title: string;
  text: string;
  htmlLang: string;
  dir: "ltr" | "rtl";
}

function isClosedPage(value: unknown): value is ClosedPage {
  const v = value as Partial<ClosedPage> | null;
  return Boolean(
    v &&
    v.closed === true &&
    typeof v.title === "string" &&
    typeof v.text === "string" &&
    typeof v.htmlLang === "string" &&
    (v.dir === "ltr" || v.dir === "rtl"),
  );
}
