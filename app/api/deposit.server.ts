/**
 * JSON calls of deposits (spec §7 /api/quickCharge/*): info, symbols (deposit currencies),
 * wire_info (the platform's bank accounts), submit (number, proofImg, address, charge_id),
 * wire_submit (number, proofImg, wire_id) and quick_ist (type, page: the user's records).
 * proofImg is an upload id or its url from /api/common/image_upload; the same service checks
 * every rule as the page does. Changing calls sent as GET need the authorization header.
 */
import { DEPOSIT_STATUS_KEYS, DepositType, MAX_DEPOSIT, COIN_DECIMALS, USD_DECIMALS } from "~/domain/deposit";
import { toDecimalString } from "~/domain/money";
import { DepositRecordsQuerySchema, DepositSchema } from "~/forms/deposit";
import { parseFields, shapeQuery } from "~/forms/parse";
import { chargeCurrencies, depositRecords, submitDeposit, wireAccounts, type DepositRecord } from "~/services/deposit.server";
import { actingUserOrInvalid, failure, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: number) => toDecimalString(micros, 2);

function toWireRecord(r: DepositRecord, t: (key: string) => string) {
  return {
    id: r.id,
    number: money(r.amount),
    coin_count: r.coinCount,
    type: r.type,
    currency_code: r.currencyCode,
    status: r.status,
    status_name: t(`deposit.status_${DEPOSIT_STATUS_KEYS[r.status] ?? "unchecked"}`),
    created_at: new Date(r.createdAt).toISOString(),
    remark: r.remark,
  };
}

function submitHandler(type: DepositType): Handler {
  return async (request, ctx) => {
    const q = await params(request, ctx);
    if (q instanceof Response) return q;
    const user = await actingUserOrInvalid(request, ctx);
    if (user instanceof Response) return user;
    const input = parseFields(DepositSchema, q);
    if (!input.ok) return failure(ctx, input.errors);
    const result = await submitDeposit(ctx, user, { ...input.value, type });
    if (!result.ok) return failure(ctx, result.errors, result.status);
    return ok(ctx, { id: result.value.id, created: result.value.created }, "deposit.submitted");
  };
}

export const depositRoutes: Routes = {
  "/api/quickCharge/info": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      return ok(ctx, {
        max_amount: money(MAX_DEPOSIT),
        usd_decimals: USD_DECIMALS,
        coin_decimals: COIN_DECIMALS,
        is_demo: user.isDemo ? 1 : 0,
      });
    },
  },
  "/api/quickCharge/symbols": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const list = await chargeCurrencies(ctx);
      return ok(
        ctx,
        list.map((c) => ({
          id: c.id,
          currency_code: c.currencyCode,
          protocol_code: c.protocolCode,
          address: c.address,
          usd_price: c.usdPrice,
        })),
      );
    },
  },
  "/api/quickCharge/wire_info": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const list = await wireAccounts(ctx);
      return ok(
        ctx,
        list.map((w) => ({
          id: w.id,
          bank_name: w.bankName,
          bank_address: w.bankAddress,
          bank_swift: w.bankSwift,
          payee_name: w.payeeName,
          payee_account: w.payeeAccount,
          bank_remark: w.bankRemark,
        })),
      );
    },
  },
  "/api/quickCharge/submit": { GET: submitHandler(DepositType.Coin), POST: submitHandler(DepositType.Coin) },
  "/api/quickCharge/wire_submit": { GET: submitHandler(DepositType.Bank), POST: submitHandler(DepositType.Bank) },
  "/api/quickCharge/quick_ist": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const q = shapeQuery(DepositRecordsQuerySchema, query(request));
      const page = await depositRecords(ctx, user.id, q.page, q.type);
      return ok(ctx, {
        data: page.records.map((r) => toWireRecord(r, ctx.t)),
        total: page.total,
        last_page: page.lastPage,
        page: page.page,
      });
    },
  },
};
