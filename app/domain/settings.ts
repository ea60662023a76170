/**
 * The operator's site settings (/admin/settings): the support chat (spec §3 base settings
 * service_link and service_link_type, §7 chat modes), the company's contact e-mail, whether the
 * site is open (spec §4 startup: status 0 sends visitors to loss_url) and the demo account's
 * starting balances. Each check answers the stored value or the errors (i18n keys) of its fields.
 * Pure: no I/O.
 */
import { httpUrl, isShownEmail, ServiceLinkType } from "~/domain/content";
import { canonicalEmail } from "~/domain/identity";
import { MICROS_PER_USD, parseAmount, type Micros } from "~/domain/money";
import { CompanyStatus } from "~/domain/startup";

/** Longest chat link or loss URL an operator can store. */
export const SETTINGS_LINK_MAX = 500;
/** Largest starting balance of a demo account, per account (USD). */
export const DEMO_BALANCE_MAX_USD = 1_000_000;

type Checked<T> = { ok: true; value: T } | { ok: false; errors: Partial<Record<string, string>> };

/**
 * The support chat: type 1 embeds the link in /mine/chat and type 3 sends the browser to it, so
 * both need an http(s) address (type 1 may be empty: no chat yet); type 2 shows the link as text
 * in a dialog (a handle or a number is fine), so it must not be empty.
 */
export function checkChatSettings(input: { link: string; type: string }): Checked<{ link: string; type: number }> {
  if (!/^[123]$/.test(input.type)) return { ok: false, errors: { service_link_type: "errors.bad_request" } };
  const type = Number(input.type);
  const link = input.link.trim();
  if (link.length > SETTINGS_LINK_MAX) return { ok: false, errors: { service_link: "settings.link_too_long" } };
  if (type !== ServiceLinkType.Frame && !link) return { ok: false, errors: { service_link: "settings.link_required" } };
  if (type === ServiceLinkType.Dialog || !link) return { ok: true, value: { link, type } };
  const url = httpUrl(link);
  return url ? { ok: true, value: { link: url.href, type } } : { ok: false, errors: { service_link: "settings.link_invalid" } };
}

/** The company's contact e-mail (shown on /mine/email): an address in its canonical form that the page can show, or empty. */
export function checkCompanyEmail(input: string): Checked<string> {
  if (!input.trim()) return { ok: true, value: "" };
  const email = canonicalEmail(input);
  return email && isShownEmail(email) ? { ok: true, value: email } : { ok: false, errors: { email: "errors.invalid_email" } };
}

/**
 * Open or closed, and where a closed site sends its visitors (empty: a closed page). Closing an
 * open site is refused unless the operator confirmed it, since every visitor is turned away at
 * once. A loss URL on one of the site's own hosts (`siteHosts`) would send visitors back into the
 * closed site, so it is refused.
 */
export function checkSiteStatus(input: {
  status: string;
  lossUrl: string;
  confirmed: boolean;
  wasClosed: boolean;
  siteHosts: string[];
}): Checked<{ status: number; lossUrl: string }> {
  if (input.status !== String(CompanyStatus.Open) && input.status !== String(CompanyStatus.Closed))
    return { ok: false, errors: { status: "errors.bad_request" } };
  const status = Number(input.status);
  const raw = input.lossUrl.trim();
  if (raw.length > SETTINGS_LINK_MAX) return { ok: false, errors: { loss_url: "settings.link_too_long" } };
  const url = raw ? httpUrl(raw) : null;
  if (raw && !url) return { ok: false, errors: { loss_url: "settings.link_invalid" } };
  if (url && input.siteHosts.some((h) => h.toLowerCase() === url.host))
    return { ok: false, errors: { loss_url: "settings.loss_url_own_site" } };
  if (status === CompanyStatus.Closed && !input.wasClosed && !input.confirmed)
    return { ok: false, errors: { confirm_close: "settings.confirm_close_required" } };
  return { ok: true, value: { status, lossUrl: url ? url.href : "" } };
}

export type DemoBalances = { funding: Micros; options: Micros; contract: Micros };

/** The demo account's starting balances: each 0 to DEMO_BALANCE_MAX_USD with at most 2 decimals. */
export function checkDemoBalances(input: Record<keyof DemoBalances, string>): Checked<DemoBalances> {
  const errors: Partial<Record<string, string>> = {};
  const value = {} as DemoBalances;
  for (const kind of ["funding", "options", "contract"] as const) {
    const amount = parseAmount(input[kind], 2);
    if (amount === null || amount > DEMO_BALANCE_MAX_USD * MICROS_PER_USD) errors[`demo_${kind}`] = "settings.demo_amount_invalid";
    else value[kind] = amount;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}
