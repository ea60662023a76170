/**
 * Upstream mode's account and wallet (issue 23, ADR 024): the signed-in user's balances, today's
 * profit and transfers from the backend (§7 getBalance, get_profits, transfer, transfer_log),
 * asked for on every page that shows them and never cached: the backend's figures are the truth.
 * Amounts arrive as decimal text and are read into micros exactly (decimalToMicros), in the shapes
 * the platform's own services give (`Assets`, `Balances`, `TransferRow`).
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import type { TransferCommand } from "~/forms/wallet";
import { decimalToMicros } from "~/domain/money";
import { accountTypeOf, walletAccount, type AccountTypeId } from "~/domain/wallet";
import type { Assets, Balances } from "~/services/account.server";
import { fail, type Outcome } from "~/services/outcome";
import type { HistoryPage, TransferPage, TransferRow } from "~/services/wallet.server";
import type { AccountLogRow } from "~/services/ledger/accounts.server";
import { callAsUser } from "./sessions.server";
import { Amount, commandFailed, Int, readOf, RequiredTime, timeOf, type UpstreamRead } from "./wire";

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
const Transfer = v.object({
  id: v.pipe(Int, v.minValue(1)),
  balance: Amount,
  from_id: v.pipe(Int, v.minValue(1), v.maxValue(3)),
  to_id: v.pipe(Int, v.minValue(1), v.maxValue(3)),
  created_at: RequiredTime,
});
const TransferLog = v.object({
  data: v.array(Transfer),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
});

const KIND_BY_TYPE = { change: "funding", micro: "options", forex: "contract" } as const;

function toTransferRow(t: v.InferOutput<typeof Transfer>): TransferRow {
  return {
    id: t.id,
    fromKind: walletAccount(t.from_id as AccountTypeId).kind,
    toKind: walletAccount(t.to_id as AccountTypeId).kind,
    amount: t.balance,
    createdAt: t.created_at,
  };
}

/** The user's three sub-accounts and their total, as the backend holds them now. */
export async function upstreamBalances(ctx: AppContext): Promise<UpstreamRead<Balances>> {
  const read = readOf(await callAsUser(ctx, { method: "GET", path: "/v2/api/main/wallet/getBalance", read: true }), Balance);
  if (!read.ok) return read;
  return {
    ok: true,
    value: {
      accounts: read.value.list.map((a) => ({
        kind: KIND_BY_TYPE[a.type],
        type: a.type,
        accountTypeId: a.accountTypeId,
        currencyId: a.currencyId,
        balance: a.balance,
        lockBalance: a.lockBalance,
      })),
      total: read.value.total,
    },
  };
}

/** The balances and today's profit (the home page's and the user centre's figures). */
export async function upstreamAssets(ctx: AppContext): Promise<UpstreamRead<Assets>> {
  const [balances, profits] = await Promise.all([
    upstreamBalances(ctx),
    callAsUser<unknown>(ctx, { method: "GET", path: "/api/user/get_profits", read: true }).then((a) => readOf(a, Profits)),
  ]);
  if (!balances.ok || !profits.ok) {
    const ended = (!balances.ok && balances.kind === "session_ended") || (!profits.ok && profits.kind === "session_ended");
    return { ok: false, kind: ended ? "session_ended" : "unavailable" };
  }
  return { ok: true, value: { ...balances.value, profit: profits.value.profit, percent: profits.value.percent } };
}

/** The user's transfers, newest first (spec §7 transfer_log; `type` 0 for all). */
export async function upstreamTransferLog(
  ctx: AppContext,
  page: number,
  accountTypeId: AccountTypeId | null,
): Promise<UpstreamRead<TransferPage>> {
  const read = readOf(
    await callAsUser(ctx, { method: "GET", path: "/api/account/transfer_log", params: { type: accountTypeId ?? 0, page }, read: true }),
    TransferLog,
  );
  if (!read.ok) return read;
  return {
    ok: true,
    value: {
      transfers: read.value.data.map(toTransferRow),
      total: read.value.total,
      page: read.value.page,
      lastPage: Math.max(1, read.value.last_page),
    },
  };
}

/**
 * A transfer between the user's sub-accounts (spec §7 transfer). The form's one-time token goes
 * along as `request_id` (a Bourse backend makes a repeated one a single transfer; another backend
 * ignores it). An answer that never came is an unknown outcome, never sent again by itself.
 */
export async function upstreamTransfer(ctx: AppContext, input: TransferCommand): Promise<Outcome<TransferRow>> {
  const from = accountTypeOf(input.from);
  const to = accountTypeOf(input.to);
  const answer = await callAsUser<unknown>(ctx, {
    method: "POST",
    path: "/api/account/transfer",
    params: {
      from: from ?? input.from,
      to: to ?? input.to,
      balance: input.amount,
      currency_id: input.currencyId,
      request_id: input.requestId,
    },
  });
  if (!answer.ok) return commandFailed(answer, ["balance", "from", "to"]);
  const parsed = v.safeParse(v.object({ transfer: Transfer }), answer.data);
  if (parsed.success) return { ok: true, value: toTransferRow(parsed.output.transfer) };
  // the backend said it is done (code 1) without a record we can read: done, as asked
  if (!from || !to) return fail({ form: "errors.try_again" });
  return {
    ok: true,
    value: {
      id: 0,
      fromKind: walletAccount(from).kind,
      toKind: walletAccount(to).kind,
      amount: decimalToMicros(input.amount ?? "") ?? 0,
      createdAt: Date.now(),
    },
  };
}

const Center = v.object({ review_status: v.optional(Int, 0) });

/** The user's identity review status (spec §7 user_real/center): the number the platform keeps too. */
export async function upstreamReviewStatus(ctx: AppContext): Promise<UpstreamRead<number>> {
  const read = readOf(await callAsUser(ctx, { method: "GET", path: "/api/user_real/center", read: true }), Center);
  return read.ok ? { ok: true, value: read.value.review_status } : read;
}

/** Resets the demo account to the backend's starting balances (spec §7 resetForexDemoAccount). */
export async function upstreamResetDemo(ctx: AppContext): Promise<Outcome<null>> {
  const answer = await callAsUser(ctx, { method: "GET", path: "/v2/api/main/user/resetForexDemoAccount" });
  return answer.ok ? { ok: true, value: null } : commandFailed(answer);
}

const LogEntry = v.object({
  Id: v.pipe(Int, v.minValue(1)),
  Value: Amount,
  Type: v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(40)),
  TypeTran: v.optional(v.pipe(v.string(), v.maxLength(200)), ""),
  Memo: v.optional(v.pipe(v.string(), v.maxLength(500)), ""),
  MemoTran: v.optional(v.pipe(v.string(), v.maxLength(500)), ""),
  CreatedAt: v.optional(v.union([v.number(), v.string()])),
  CreatedAtTran: v.optional(v.string()),
});
const AccountLog = v.object({
  data: v.array(LogEntry),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
  per_page: v.optional(Int, 20),
});

/**
 * One page of an account's log (spec §7 forexChange). The backend's own words for each line's
 * kind and memo (TypeTran, MemoTran, in the user's language by the contract) are kept, since its
 * kinds need not be this platform's.
 */
export async function upstreamAccountHistory(
  ctx: AppContext,
  accountTypeId: AccountTypeId,
  page: number,
): Promise<UpstreamRead<HistoryPage>> {
  const read = readOf(
    await callAsUser(ctx, {
      method: "GET",
      path: "/v2/api/main/accountLog/forexChange",
      params: { type: accountTypeId, page },
      read: true,
    }),
    AccountLog,
  );
  if (!read.ok) return read;
  const when = (e: v.InferOutput<typeof LogEntry>) => timeOf(e.CreatedAtTran ?? e.CreatedAt ?? null) ?? 0;
  return {
    ok: true,
    value: {
      entries: read.value.data.map((e) => ({
        id: e.Id,
        amount: e.Value,
        kind: e.Type as AccountLogRow["kind"],
        memo: e.Memo,
        createdAt: when(e),
        kindText: e.TypeTran || undefined,
        memoText: e.MemoTran || undefined,
      })),
      total: read.value.total,
      page: read.value.page,
      lastPage: Math.max(1, read.value.last_page),
      pageSize: read.value.per_page,
    },
  };
}
