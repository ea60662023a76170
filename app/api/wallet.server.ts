/**
 * JSON calls of the wallet (spec §7): an account's detail (forexDetail) and log (forexChange),
 * transfers between the user's sub-accounts (transfer) and their log (transfer_log). Money as
 * decimal strings; lists paged with total and last_page; words translated into the `lang`
 * header's language.
 */
import type { AppContext } from "~/context.server";
import { exactDecimals, toBalanceString, toDecimalString } from "~/domain/money";
import { accountTypeOf, walletAccount } from "~/domain/wallet";
import { parseFields, shapeQuery } from "~/forms/parse";
import { AccountQuerySchema, TransferLogQuerySchema, TransferSchema, transferCommandOf } from "~/forms/wallet";
import { ledgerKindText, memoText } from "~/lib/ledger-text";
import { walletBalances } from "~/services/account.server";
import type { AccountLogRow } from "~/services/ledger/accounts.server";
import { accountDetail, accountHistory, transfer, transferLog, type TransferRow } from "~/services/wallet.server";
import { actingUserOrInvalid, failure, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

/** A statement's or a transfer's amount, exactly (2, 4 or 6 decimals as it has them; cents read as before). */
const money = (micros: number) => toDecimalString(micros, exactDecimals(micros));
/** "2024-05-01 13:45:09" (UTC), the spec's *Tran time form. */
const timeText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

function wireLogEntry(ctx: AppContext, e: AccountLogRow) {
  return {
    Id: e.id,
    Value: money(e.amount),
    Type: e.kind,
    TypeTran: ledgerKindText(ctx.t, e.kind),
    Memo: e.memo,
    MemoTran: memoText(ctx.t, e.memo),
    CreatedAt: new Date(e.createdAt).toISOString(),
    CreatedAtTran: timeText(e.createdAt),
  };
}

export function wireTransfer(ctx: AppContext, r: TransferRow) {
  const from = accountTypeOf(r.fromKind)!;
  const to = accountTypeOf(r.toKind)!;
  return {
    id: r.id,
    balance: money(r.amount),
    from: walletAccount(from).type,
    to: walletAccount(to).type,
    from_id: from,
    to_id: to,
    from_name: ctx.t(`accounts.${r.fromKind}`),
    to_name: ctx.t(`accounts.${r.toKind}`),
    created_at: timeText(r.createdAt),
  };
}

const transferCall: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const input = parseFields(TransferSchema, q);
  if (!input.ok) return failure(ctx, input.errors);
  const result = await transfer(ctx, user, transferCommandOf(input.value));
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { transfer: wireTransfer(ctx, result.value), accounts: await walletBalances(ctx, user.id) }, "transfer.done");
};

export const walletRoutes: Routes = {
  "/v2/api/main/account/forexDetail": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const { account: id } = shapeQuery(AccountQuerySchema, query(request));
      if (id === null) return failure(ctx, { type: "transfer.err_account" });
      const a = await accountDetail(ctx, user.id, id);
      if (!a) return failure(ctx, { type: "errors.not_found" }, 404);
      const w = walletAccount(id);
      return ok(ctx, {
        type: w.type,
        accountTypeId: a.accountTypeId,
        currencyId: a.currencyId,
        name: ctx.t(`accounts.${w.kind}`),
        balance: toBalanceString(a.balance),
        lockBalance: toBalanceString(a.lockBalance),
        total: toBalanceString(a.balance + a.lockBalance),
      });
    },
  },
  "/v2/api/main/accountLog/forexChange": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const { account: id, page: p } = shapeQuery(AccountQuerySchema, query(request));
      if (id === null) return failure(ctx, { type: "transfer.err_account" });
      const page = await accountHistory(ctx, user.id, id, p);
      return ok(ctx, {
        data: page.entries.map((e) => wireLogEntry(ctx, e)),
        total: page.total,
        last_page: page.lastPage,
        page: page.page,
        per_page: page.pageSize,
      });
    },
  },
  "/api/account/transfer": { GET: transferCall, POST: transferCall },
  "/api/account/transfer_log": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const { account, page: p } = shapeQuery(TransferLogQuerySchema, query(request));
      if (account === null) return failure(ctx, { type: "transfer.err_account" });
      const page = await transferLog(ctx, user.id, p, account === "all" ? null : account);
      return ok(ctx, {
        data: page.transfers.map((r) => wireTransfer(ctx, r)),
        total: page.total,
        last_page: page.lastPage,
        page: page.page,
      });
    },
  },
};
