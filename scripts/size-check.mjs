// `npm test`'s size step: the JavaScript each budgeted page makes a fresh visitor download, in
// gzip bytes, against its budget (issue 22). Deterministic: it reads the production build in
// public/build (bytes, not timings), counted as bench/page-weight.mjs counts them. A budget is
// raised only with its reason written in the README's "Page budgets" section.
import { pageSplit } from "../bench/page-weight.mjs";

/** KB of gzip: `first` = scripts requested before hydration; `total` = with the lazy chunks. */
export const BUDGETS = {
  "/": { route: "routes/_index", first: 110 },
  "/login": { route: "routes/login", first: 110 },
  "/register": { route: "routes/register", first: 110 },
  "/trade": { route: "routes/trade", first: 150, total: 190 },
  "/order": { route: "routes/order", first: 125 },
  "/mine/wallet": { route: "routes/mine.wallet", first: 125 },
  "/follow/follow-list": { route: "routes/follow.follow-list", first: 125 },
};

const split = pageSplit(Object.fromEntries(Object.entries(BUDGETS).map(([page, b]) => [page, b.route])));
const over = [];
for (const [page, budget] of Object.entries(BUDGETS)) {
  const { first, lazy } = split[page];
  const figures = { first: first / 1024, total: (first + lazy) / 1024 };
  const parts = [];
  for (const kind of ["first", "total"]) {
    if (budget[kind] === undefined) continue;
    const ok = figures[kind] <= budget[kind];
    parts.push(`${kind} ${figures[kind].toFixed(1)} KB ≤ ${budget[kind]}${ok ? "" : "  OVER"}`);
    if (!ok) over.push(`${page} ${kind} ${figures[kind].toFixed(1)} KB > ${budget[kind]} KB`);
  }
  console.log(`  ${page.padEnd(19)} ${parts.join(", ")}`);
}
if (over.length) {
  console.error(`\nOver budget:\n  ${over.join("\n  ")}\n(cut code, or raise the budget with its reason in the README's "Page budgets")`);
  process.exit(1);
}
console.log("every page within its budget");
