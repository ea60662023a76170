/**
 * What upstream mode serves so far (issue 23, ADR 024), shared by the Worker's gate
 * (services/app-context.server.ts) and the pages' navigation, which leaves out links to what is
 * not served: a half-built upstream mode is smaller, never broken. An area joins the list with
 * its adapter, never before: serving this Worker's own D1 in the backend's place would show users
 * accounts that are not theirs.
 *
 * Served now: the home page (instruments, categories, the company and base settings through the
 * D1 cache; the signed-in user's balance from the backend); sign-in, registration, the forgotten
 * password and sign-out; the user centre (balances, the review status, a demo account's reset);
 * contract trading (placing, the positions, the order lists, closing, cancelling and stops) and
 * timed options (terms through the cache, buying, the lists and receipts); the wallet, its
 * accounts and their logs, transfers, withdrawals and payout methods; mining (products,
 * subscriptions, income, redemption); the invite page; news (through the cache); the company's
 * e-mail and support chat; the settings page, the language and theme choices, the offline page
 * and the message files. The live socket (/v2/ws) is the market room's, whose feed in upstream
 * mode is the backend's socket.
 */
export type PlatformKind = "local" | "upstream";

const UPSTREAM_SERVED: readonly RegExp[] = [
  /^\/$/,
  /^\/login$/,
  /^\/register$/,
  /^\/forgot$/,
  /^\/logout$/,
  /^\/language$/,
  /^\/settings$/,
  /^\/offline$/,
  /^\/user$/,
  /^\/mine\/(system|email|chat|invite)$/,
  /^\/trade$/,
  /^\/order$/,
  /^\/mining$/,
  /^\/mining\/(subscribe|record|income)$/,
  /^\/news$/,
  /^\/news\/detail$/,
  /^\/mine\/(transfer|wallet|accounts|history|withdraw|withdraw-way|bank-card-list|coin-address-list)$/,
  /^\/locales\/[a-z]{2,3}$/,
  // Remix's route discovery (route modules only, no data): links and forms of served pages need it
  /^\/__manifest$/,
];

/**
 * Parts of served pages that upstream mode does not serve yet, by their address (a page's tab,
 * by its query). Pages ask `serves` with the query, and their loaders treat such a request as the
 * part that is served. None at the moment: timed options joined with their adapter.
 */
const UPSTREAM_HIDDEN: readonly RegExp[] = [];

/** A page's path, for a document or its data request (Remix's `/login.data`, `/_root.data` for "/"). */
function pagePath(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const page = pathname.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/** Whether this deployment serves a path: everything in local mode; the list above in upstream mode. */
export function serves(platform: PlatformKind, target: string): boolean {
  if (platform === "local") return true;
  const [pathname, query] = target.split("?", 2) as [string, string | undefined];
  const path = pagePath(pathname);
  if (!UPSTREAM_SERVED.some((p) => p.test(path))) return false;
  return !(query && UPSTREAM_HIDDEN.some((p) => p.test(`${path}?${query}`)));
}
