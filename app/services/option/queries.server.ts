/**
 * Timed options' reads (issue 9): the durations and preset stakes on offer, and the user's
 * options (the lists, the trade page's open ones, one option's detail).
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { OptionStatus } from "~/domain/option";
import type { Micros } from "~/domain/money";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { listInstruments } from "~/services/market.server";
import { basicInfo } from "~/services/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamOption, upstreamOptionPage, upstreamOptionTerms } from "~/services/upstream/option.server";
import { DURATION_COLUMNS, OPTION_COLUMNS } from "./columns";
import type { Duration, OptionRow, OptionTerms } from "./views";

export const PAGE_SIZE = 20;
/** The largest stake of one option (a typo guard). */
export const MAX_STAKE: Micros = 1_000_000 * 1_000_000;

/** The durations (on offer, or all of them for the console), the preset stakes and the loss level, in one batch. */
export async function readTerms<D extends Duration>(ctx: ServiceContext, durationsSql: string): Promise<OptionTerms<D>> {
  const [durations, amounts, level] = await ctx.d1.batch([
    ctx.d1.prepare(durationsSql),
    ctx.d1.prepare("SELECT amount FROM option_amounts WHERE status = 1 ORDER BY sort, amount"),
    ctx.d1.prepare("SELECT micro_loss_level AS level FROM base_settings WHERE company_id = ?1").bind(MAIN_COMPANY_ID),
  ]);
  return {
    durations: durations!.results as D[],
    amounts: (amounts!.results as { amount: number }[]).map((a) => a.amount),
    lossLevel: (level!.results[0] as { level: number } | undefined)?.level ?? 0,
  };
}

/**
 * The durations on offer, the preset stakes (spec §7 get_seconds: sec and number) and the loss
 * level (what a wrong option costs, shown before buying and snapshotted into each option).
 */
export async function optionTerms(ctx: ServiceContext): Promise<OptionTerms> {
  if (ctx.config.platform.kind === "upstream") return upstreamOptionTerms(ctx, (await basicInfo(ctx)).micro_loss_level);
  return readTerms<Duration>(ctx, `SELECT ${DURATION_COLUMNS} FROM option_durations WHERE status = 1 ORDER BY sort, seconds`);
}

export interface OptionPage {
  options: (OptionRow & { showCode: string })[];
  total: number;
  page: number;
  lastPage: number;
}

/** The options lists (spec §2 Orders, future tab): 1 in transaction, 3 closed. */
export async function listOptions(
  ctx: ServiceContext,
  userId: number,
  status: number,
  page: number,
  pageSize = PAGE_SIZE,
): Promise<OptionPage> {
  const s = status === OptionStatus.Settled ? OptionStatus.Settled : OptionStatus.Open;
  const p = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${OPTION_COLUMNS} FROM options WHERE user_id = ?1 AND status = ?2 ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(userId, s),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM options WHERE user_id = ?1 AND status = ?2").bind(userId, s),
  ]);
  const names = new Map((await listInstruments(ctx)).map((i) => [i.code, i.showCode]));
  const total = (count!.results[0] as { n: number }).n;
  return {
    options: (rows!.results as OptionRow[]).map((r) => ({ ...r, showCode: names.get(r.code) ?? r.code })),
    total,
    page: p,
    lastPage: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** The user's options in transaction on one instrument (the trade page's future tab). */
export async function openOptionsOn(ctx: ServiceContext, userId: number, code: string): Promise<OptionRow[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${OPTION_COLUMNS} FROM options WHERE user_id = ?1 AND code = ?2 AND status = 1 ORDER BY id DESC LIMIT 20`)
    .bind(userId, code)
    .all<OptionRow>();
  return results;
}

/** The user's option (null for another user's or a missing one). */
export async function optionDetail(ctx: ServiceContext, userId: number, id: number): Promise<(OptionRow & { showCode: string }) | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await ctx.d1
    .prepare(`SELECT ${OPTION_COLUMNS} FROM options WHERE id = ?1 AND user_id = ?2`)
    .bind(id, userId)
    .first<OptionRow>();
  if (!row) return null;
  const names = new Map((await listInstruments(ctx)).map((i) => [i.code, i.showCode]));
  return { ...row, showCode: names.get(row.code) ?? row.code };
}

/**
 * The signed-in user's options from whichever platform holds them (ADR 024): this one's tables,
 * or the backend's micro/orders in upstream mode, read back into option rows.
 */
export async function myOptions(ctx: AppContext, userId: number, status: number, page: number): Promise<UpstreamRead<OptionPage>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await listOptions(ctx, userId, status, page) };
  const [list, info] = await Promise.all([listInstruments(ctx), basicInfo(ctx)]);
  return upstreamOptionPage(ctx, userId, status === OptionStatus.Settled ? 3 : 1, page, list, info.micro_loss_level);
}

export async function myOpenOptionsOn(ctx: AppContext, userId: number, code: string): Promise<UpstreamRead<OptionRow[]>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await openOptionsOn(ctx, userId, code) };
  const read = await myOptions(ctx, userId, OptionStatus.Open, 1);
  return read.ok ? { ok: true, value: read.value.options.filter((o) => o.code === code) } : read;
}

export async function myOptionDetail(
  ctx: AppContext,
  userId: number,
  id: number,
): Promise<UpstreamRead<(OptionRow & { showCode: string }) | null>> {
  if (ctx.config.platform.kind !== "upstream") return { ok: true, value: await optionDetail(ctx, userId, id) };
  if (!Number.isSafeInteger(id) || id <= 0) return { ok: true, value: null };
  const [list, info] = await Promise.all([listInstruments(ctx), basicInfo(ctx)]);
  return upstreamOption(ctx, userId, id, list, info.micro_loss_level);
}
