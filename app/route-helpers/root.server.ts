/**
 * The root loader (every page): language and messages, theme, flash, the signed-in user and the
 * live socket's ticket, and the company's startup status (spec §4). It lives here, not in
 * app/root.tsx, so that its imports stay out of the browser bundle every page loads.
 */
import { data, redirect, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { RTL_LANGUAGES, languageInfo, normalizeLanguage, unitLocaleOf, type LanguageCode } from "~/i18n/config";
import { messagesJsonFor, messagesVersion, sectionsJsonFor } from "~/i18n/i18n.server";
import { sectionsOfHandles } from "~/i18n/sections";
import { readFlash, type Flash } from "~/services/web.server";
import { socketTicket } from "~/services/socket-auth.server";
import { companyInfo } from "~/services/account.server";
import { readTheme, type Theme } from "~/services/preferences.server";
import type { SessionUser } from "~/services/session.server";
import { onPcHost } from "~/domain/device";
import { startupStatus } from "~/domain/startup";
import { shortAddress } from "~/domain/web3-address";

/** The offline page (routes/offline.tsx): the service worker keeps a copy of it per language. */
export const OFFLINE_PATH = "/offline";

/** What the root's data holds of the visitor: none of it on the offline page. */
interface Visitor {
  theme: Theme | null;
  flash: Flash | null;
  /** The signed-in user as pages show it: the wallet address shortened. */
  user: (Pick<SessionUser, "uid" | "email" | "mobile" | "isDemo"> & { wallet: string }) | null;
  socketTicket: string | null;
}

function rootData(context: AppLoadContext, url: URL, lang: LanguageCode, visitor: Visitor | null) {
  const info = languageInfo(lang);
  return {
    lang,
    htmlLang: info.htmlLang,
    locale: info.locale,
    unitLocale: unitLocaleOf(lang),
    dir: RTL_LANGUAGES.has(lang) ? ("rtl" as const) : ("ltr" as const),
    // one JSON text, not an object: the browser decodes it in one step (see lib/messages readMessages)
    // a page's document: the sections its routes name (i18n/sections); its data (after a form, a
    // language change in the browser): all of them
    messages: context.pageHandles ? sectionsJsonFor(lang, sectionsOfHandles(context.pageHandles)) : messagesJsonFor(lang),
    messagesVersion: messagesVersion(lang),
    theme: visitor?.theme ?? null,
    flash: visitor?.flash ?? null,
    isLocal: context.config.isLocal,
    // upstream mode leaves out links to what it does not serve yet (lib/upstream-areas.ts)
    platform: context.config.platform.kind,
    // The desktop site (spec §9 pc subdomain): pages on the configured pc host get the desktop layout.
    desktopSite: onPcHost(url, context.config.pcHost),
    user: visitor?.user ?? null,
    socketTicket: visitor?.socketTicket ?? null,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // The offline page is the same for everyone who reads its language (?lng=, else the visitor's):
  // nothing of the visitor (user, flash, theme, socket ticket) and no database read, so that the
  // service worker and any cache may keep it.
  if (url.pathname === OFFLINE_PATH)
    return data(rootData(context, url, normalizeLanguage(url.searchParams.get("lng")) ?? context.lang, null));
  const [user, { flash, clear }, company] = await Promise.all([context.user(), readFlash(context, request), companyInfo(context)]);
  // Spec §4 startup: a company with status 0 sends visitors to its loss_url, or (when it has no
  // usable loss_url) shows a translated closed page. Signed-in operators keep working, and the
  // login page stays reachable so that they can sign in.
  const closed = startupStatus(company, url.host);
  if (closed && user?.role !== "operator" && url.pathname !== "/login") {
    if (closed.lossUrl) throw redirect(closed.lossUrl);
    throw data(
      {
        closed: true,
        title: context.t("status.closed_title"),
        text: context.t("status.closed_text"),
        htmlLang: languageInfo(context.lang).htmlLang,
        dir: RTL_LANGUAGES.has(context.lang) ? "rtl" : "ltr",
      },
      { status: 503 },
    );
  }
  const body = rootData(context, url, context.lang, {
    theme: await readTheme(request),
    flash,
    user: user ? { uid: user.uid, email: user.email, mobile: user.mobile, isDemo: user.isDemo, wallet: shortAddress(user.wallet) } : null,
    socketTicket: user ? await context.token().then((token) => (token ? socketTicket(context.env, token) : null)) : null,
  });
  // Cache-Control (private, no-store for signed-in users) is set for every response by the Worker.
  return data(body, { headers: clear ? { "Set-Cookie": clear } : {} });
}
