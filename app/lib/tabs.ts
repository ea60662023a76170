/** The bottom tab bar's destinations (components/layout.tsx TabBar). */
export const TAB_PATHS: string[] = ["/", "/trade", "/follow", "/rank", "/order", "/user"];
type TabPath = "/" | "/trade" | "/follow" | "/rank" | "/order" | "/user";

/**
 * The spec's bottom-tab labels (§2: documentary, orders, quotes, ranking, trade, market, account)
 * on Bourse's six tabs. Seven labels, six tabs: the original app's "market" and "quotes" tabs
 * both showed the list of instruments with their prices, which is Bourse's home:
 *   market      → /        (tab "Market"; the home's instrument list is headed "Quotes")
 *   quotes      → /        (the same list; the trade page's drawer lists every quote too)
 *   trade       → /trade
 *   documentary → /follow  (the original's word for copy trading; the tab says "Copy")
 *   ranking     → /rank
 *   orders      → /order
 *   account     → /user
 */
export const SPEC_TAB_LABELS: Record<"documentary" | "orders" | "quotes" | "ranking" | "trade" | "market" | "account", TabPath> = {
  market: "/",
  quotes: "/",
  trade: "/trade",
  documentary: "/follow",
  ranking: "/rank",
  orders: "/order",
  account: "/user",
};
