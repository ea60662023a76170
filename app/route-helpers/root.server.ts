/**
 * The root loader (every page): language and messages, theme, flash, the signed-in user and the
 * live socket's ticket, and the company's startup status (spec §4). It lives here, not in
 * app/root.tsx, so that its imports stay out of the browser bundle every page loads.
 */
import { data, redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { RTL_LANGUAGES, languageInfo, unitLocaleOf } from "~/i18n/config";
import { messagesFor } from "~/i18n/i18n.server";
import { readFlash } from "~/services/web.server";
import { socketTicket } from "~/services/socket-auth.server";
import { companyInfo } from "~/services/account.server";
import { readTheme } from "~/services/preferences.server";
import { onPcHost } from "~/domain/device";
import { startupStatus } from "~/domain/startup";
import { shortAddress } from "~/domain/web3-address";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [user, { flash, clear }, company] = await Promise.all([context.user(), readFlash(context, request), companyInfo(context)]);
  const url = new URL(request.url);
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
  const info = languageInfo(context.lang);
  const body = {
    lang: context.lang,
    htmlLang: info.htmlLang,
    locale: info.locale,
    unitLocale: unitLocaleOf(context.lang),
    dir: RTL_LANGUAGES.has(context.lang) ? ("rtl" as const) : ("ltr" as const),
    messages: messagesFor(context.lang),
    theme: await readTheme(request),
    flash,
    isLocal: context.config.isLocal,
    // The desktop site (spec §9 pc subdomain): pages on the configured pc host get the desktop layout.
    desktopSite: onPcHost(url, context.config.pcHost),
    user: user ? { uid: user.uid, email: user.email, mobile: user.mobile, isDemo: user.isDemo, wallet: shortAddress(user.wallet) } : null,
    socketTicket: user ? await context.token().then((token) => (token ? socketTicket(context.env, token) : null)) : null,
  };
  // Cache-Control (private, no-store for signed-in users) is set for every response by the Worker.
  return data(body, { headers: clear ? { "Set-Cookie": clear } : {} });
}
