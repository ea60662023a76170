/**
 * Upstream mode's account reads (issue 23, ADR 024): the signed-in user's balances and today's
 * profit from the backend (§7 getBalance, get_profits), asked for on every page that shows them
 * and never cached: the backend's figures are the truth. Amounts arrive as decimal text and are
 * read into micros exactly (decimalToMicros), the same `Assets` the platform's own service gives.
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import { decimalToMicros, type Micros } from "~/domain/money";
import type { Assets } from "~/services/account.server";
import { callAsUser } from "./sessions.server";

/** What an adapter's read of the user's own data gives: the value, or why there is none. */
export type UpstreamRead<T> = { ok: true; value: T } | { ok: false; kind: "session_ended" | "unavailable" };

const Amount = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((x) => decimalToMicros(x)),
  v.custom<Micros>((x) => x !== null, "not an amount"),
);
const Balance = v.object({
  total: Amount,
  list: v.array(
    v.object({
      type: v.picklist(["change", "micro", "forex"]),
      accountTypeId: v.optional(v.number(), 0),
      currencyId: v.optional(v.number(), 0),
      balance: Amount,
      lockBalance: Amount,
    }),
  ),
});
const Profits = v.object({ profit: Amount, percent: v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(24)) });

const KIND_BY_TYPE = { change: "funding", micro: "options", forex: "contract" } as const;

/** The user's three sub-accounts, total and today's profit, as the backend holds them now. */
export async function upstreamAssets(ctx: AppContext): Promise<UpstreamRead<Assets>> {
  const [balance, profits] = await Promise.all([
    callAsUser<unknown>(ctx, { method: "GET", path: "/v2/api/main/wallet/getBalance", read: true }),
    callAsUser<unknown>(ctx, { method: "GET", path: "/api/user/get_profits", read: true }),
  ]);
  if ((!balance.ok && balance.kind === "session_ended") || (!profits.ok && profits.kind === "session_ended"))
    return { ok: false, kind: "session_ended" };
  const b = balance.ok ? v.safeParse(Balance, balance.data) : null;
  const p = profits.ok ? v.safeParse(Profits, profits.data) : null;
  if (!b?.success || !p?.success) return { ok: false, kind: "unavailable" };
  return {
    ok: true,
    value: {
      accounts: b.output.list.map((a) => ({
        kind: KIND_BY_TYPE[a.type],
        type: a.type,
        accountTypeId: a.accountTypeId,
        currencyId: a.currencyId,
        balance: a.balance,
        lockBalance: a.lockBalance,
      })),
      total: b.output.total,
      profit: p.output.profit,
      percent: p.output.percent,
    },
  };
}
