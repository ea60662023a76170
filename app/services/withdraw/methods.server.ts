/**
 * The user's payout methods (issue 10 §3; spec §2 coin-address-list / bank-card-list, §7
 * get_draw_method, bind_draw_method, del_draw_method): coin addresses and bank accounts a
 * withdrawal pays out to.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { columnList, type RowOf } from "~/db/columns";
import { payoutMethods } from "~/db/schema";
import { DrawType, MAX_METHODS_PER_TYPE, isValidAddress, normaliseAddress } from "~/domain/withdraw";
import type { MethodInput } from "~/forms/withdraw";
import { fail, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { findCurrency } from "./queries.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamBindMethod, upstreamDeleteMethod, upstreamMethods } from "~/services/upstream/withdraw.server";

const HEAD = columnList(payoutMethods, ["id", "drawType", "drawCurrencyId"], "m");
const TAIL = columnList(
  payoutMethods,
  ["dcAddress", "bankName", "bankAddress", "bankSwift", "payeeName", "payeeAccount", "createdAt"],
  "m",
);
/** A method with its currency's code and network (`m` the method, `c` its currency, LEFT JOINed: '' when it is gone). */
const METHOD_COLUMNS = `${HEAD}, COALESCE(c.code, '') AS code, COALESCE(c.protocol, '') AS protocol, ${TAIL}`;

/** A live payout method (spec §3: a coin address or a bank account). */
export type PayoutMethod = Omit<RowOf<typeof HEAD>, "drawType"> & { drawType: DrawType; code: string; protocol: string } & RowOf<
    typeof TAIL
  >;

/** The user's live methods of a type (spec §2 coin-address-list / bank-card-list), newest first. */
export async function listMethods(ctx: ServiceContext, userId: number, drawType: DrawType): Promise<PayoutMethod[]> {
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${METHOD_COLUMNS} FROM payout_methods m LEFT JOIN withdraw_currencies c ON c.id = m.draw_currency_id
        WHERE m.user_id = ?1 AND m.draw_type = ?2 AND m.deleted_at IS NULL ORDER BY m.id DESC LIMIT ${MAX_METHODS_PER_TYPE * 2}`,
    )
    .bind(userId, drawType)
    .all<PayoutMethod>();
  return results;
}

/** One live method of the user (null for a missing, deleted or another user's one: the same answer). */
export async function findMethod(ctx: ServiceContext, userId: number, id: number): Promise<PayoutMethod | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return ctx.d1
    .prepare(
      `SELECT ${METHOD_COLUMNS} FROM payout_methods m LEFT JOIN withdraw_currencies c ON c.id = m.draw_currency_id WHERE m.id = ?1 AND m.user_id = ?2 AND m.deleted_at IS NULL`,
    )
    .bind(id, userId)
    .first<PayoutMethod>();
}

/**
 * Binds a payout method (spec §7 bind_draw_method). A coin address is checked against its
 * currency's network; at most MAX_METHODS_PER_TYPE live methods per type (counted inside the
 * insert itself, so concurrent binds cannot pass the limit).
 */
export async function bindMethod(ctx: ServiceContext, user: SessionUser, input: MethodInput): Promise<Outcome<PayoutMethod>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const drawType = input.draw_type === "2" ? DrawType.Bank : DrawType.Coin;
  const currency = await findCurrency(ctx, input.draw_currency_id);
  if (!currency || currency.drawType !== drawType) return fail({ draw_currency_id: "withdraw.choose_currency" });
  let fields: { dcAddress: string; bankName: string; bankAddress: string; bankSwift: string; payeeName: string; payeeAccount: string };
  if (input.draw_type === "1") {
    const address = normaliseAddress(input.dc_address);
    if (!isValidAddress(currency.protocol, address))
      return fail({ dc_address: `wallet.address_invalid_for|${currency.protocol || currency.code}` });
    fields = { dcAddress: address, bankName: "", bankAddress: "", bankSwift: "", payeeName: "", payeeAccount: "" };
  } else {
    fields = {
      dcAddress: "",
      bankName: input.bank_name,
      bankAddress: input.bank_address,
      bankSwift: input.bank_swift,
      payeeName: input.payee_name,
      payeeAccount: input.payee_account,
    };
  }
  const row = await ctx.d1
    .prepare(
      `INSERT INTO payout_methods (user_id, draw_type, draw_currency_id, dc_address, bank_name, bank_address, bank_swift, payee_name, payee_account)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
        WHERE (SELECT COUNT(*) FROM payout_methods WHERE user_id = ?1 AND draw_type = ?2 AND deleted_at IS NULL) < ?10
       RETURNING id`,
    )
    .bind(
      user.id,
      drawType,
      currency.id,
      fields.dcAddress,
      fields.bankName,
      fields.bankAddress,
      fields.bankSwift,
      fields.payeeName,
      fields.payeeAccount,
      MAX_METHODS_PER_TYPE,
    )
    .first<{ id: number }>();
  if (!row) return fail({ form: `wallet.too_many_methods|${MAX_METHODS_PER_TYPE}` });
  const method = await findMethod(ctx, user.id, row.id);
  return method ? { ok: true, value: method } : fail({ form: "errors.try_again" }, 500);
}

/** Deletes a method of the user (the row stays, marked deleted: withdrawals refer to it). False when there is none to delete. */
export async function deleteMethod(ctx: ServiceContext, user: SessionUser, id: number, now = Date.now()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const result = await ctx.d1
    .prepare("UPDATE payout_methods SET deleted_at = ?3 WHERE id = ?1 AND user_id = ?2 AND deleted_at IS NULL")
    .bind(id, user.id, now)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The signed-in user's payout methods on whichever platform holds them (ADR 024). */
export async function myMethods(ctx: AppContext, userId: number, drawType: DrawType): Promise<UpstreamRead<PayoutMethod[]>> {
  if (ctx.config.platform.kind === "upstream") return upstreamMethods(ctx, drawType);
  return { ok: true, value: await listMethods(ctx, userId, drawType) };
}

export async function findMyMethod(
  ctx: AppContext,
  userId: number,
  id: number,
  drawType: DrawType,
): Promise<UpstreamRead<PayoutMethod | null>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await findMethod(ctx, userId, id) };
  const list = await upstreamMethods(ctx, drawType);
  return list.ok ? { ok: true, value: list.value.find((m) => m.id === id) ?? null } : list;
}

export async function bindMyMethod(ctx: AppContext, user: SessionUser, input: MethodInput): Promise<Outcome<{ id: number }>> {
  if (ctx.config.platform.kind !== "upstream") {
    const bound = await bindMethod(ctx, user, input);
    return bound.ok ? { ok: true, value: { id: bound.value.id } } : bound;
  }
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  return upstreamBindMethod(ctx, input);
}

export async function deleteMyMethod(ctx: AppContext, user: SessionUser, id: number): Promise<boolean> {
  if (ctx.config.platform.kind !== "upstream") return deleteMethod(ctx, user, id);
  return upstreamDeleteMethod(ctx, id);
}
