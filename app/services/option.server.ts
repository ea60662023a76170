/**
 * Timed up/down options (issue 9): the durations and preset stakes on offer, buying (the stake
 * moves to the options account's locked balance in one ledger transaction, with the option row),
 * the lists, and the engine's side: its open options and the set-based settlement of every option
 * due in a tick. Rules come from app/domain/option.ts (the browser's predicted profit uses them).
 */
import type { ServiceContext } from "~/context.server";
import { LOAD_PAGE, type EngineOption, type OptionSettlementRequest, type OptionSettlementResult } from "~/domain/engine";
import type { ShardFilter } from "~/domain/engine-shards";
import { Direction, OptionStatus, parseDurationSeconds, parseProfitRatio, parseStakeList } from "~/domain/option";
import { priceToSteps } from "~/domain/market";
import { parseAmount, type Micros } from "~/domain/money";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import {
  AccountKind,
  Bucket,
  LedgerError,
  PlatformAccount,
  batchPostingStatements,
  openBatch,
  post,
  postBatch,
  txOfKey,
} from "~/services/ledger.server";
import { findInstrument, listInstruments, quoteOf } from "~/services/market.server";
import { bumpStatement, forgetVersions } from "~/services/cache.server";
import { assertOperator } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";

export const PAGE_SIZE = 20;
/** The largest stake of one option (a typo guard). */
export const MAX_STAKE: Micros = 1_000_000 * 1_000_000;

export interface Duration {
  id: number;
  seconds: number;
  profitRatio: string;
  minAmount: Micros;
}

/** The durations (on offer, or all of them for the console), the preset stakes and the loss level, in one batch. */
async function readTerms<D extends Duration>(
  ctx: ServiceContext,
  durationsSql: string,
): Promise<{ durations: D[]; amounts: Micros[]; lossLevel: number }> {
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
export function optionTerms(ctx: ServiceContext) {
  return readTerms<Duration>(
    ctx,
    "SELECT id, seconds, profit_ratio AS profitRatio, min_amount AS minAmount FROM option_durations WHERE status = 1 ORDER BY sort, seconds",
  );
}

/* ---------------------------------------------------------------------------------------------
 * The operator's terms (/admin/options). Options already bought keep the terms snapshotted in
 * their row (ratio, seconds, loss level), so edits apply to new options only.
 * ------------------------------------------------------------------------------------------- */

export interface DurationRow extends Duration {
  sort: number;
  status: number;
}

/** Every duration, offered or not, the preset stakes on offer and the loss level. */
export function allOptionTerms(ctx: ServiceContext, operator: SessionUser) {
  assertOperator(operator);
  return readTerms<DurationRow>(
    ctx,
    "SELECT id, seconds, profit_ratio AS profitRatio, min_amount AS minAmount, sort, status FROM option_durations ORDER BY sort, seconds",
  );
}

export interface DurationEdit {
  /** The duration's id; absent to add one. */
  id?: string | null;
  seconds?: string;
  profit_ratio?: string;
  min_amount?: string;
  /** "1" offered; anything else not offered. */
  status?: string;
}

/**
 * Adds a duration or edits one. Each write is one statement whose conditions are the rules, so
 * concurrent edits cannot break them: no two durations of the same length, and at least one stays
 * on offer.
 */
export async function saveOptionDuration(
  ctx: ServiceContext,
  operator: SessionUser,
  input: DurationEdit,
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const errors: FieldErrors = {};
  const seconds = parseDurationSeconds(input.seconds ?? "");
  if (seconds === null) errors.seconds = "options.admin_seconds_invalid";
  const ratio = parseProfitRatio(input.profit_ratio ?? "");
  if (ratio === null) errors.profit_ratio = "options.admin_ratio_invalid";
  const min = parseAmount(input.min_amount ?? "", 2);
  if (min === null || min <= 0 || min > MAX_STAKE) errors.min_amount = "options.admin_amount_invalid";
  // No id: a new duration. An id that is not a number names no duration.
  if (input.id && !/^\d{1,9}$/.test(input.id)) return fail({ form: "errors.not_found" }, 404);
  const id = input.id ? Number(input.id) : null;
  if (Object.keys(errors).length > 0 || seconds === null || ratio === null || min === null) return fail(errors);
  const status = input.status === "1" ? 1 : 0;
  if (id === null) {
    const added = await ctx.d1
      .prepare(
        `INSERT INTO option_durations (seconds, profit_ratio, min_amount, sort, status)
         SELECT ?1, ?2, ?3, COALESCE((SELECT MAX(sort) FROM option_durations), 0) + 1, ?4
          WHERE NOT EXISTS (SELECT 1 FROM option_durations WHERE seconds = ?1)
         RETURNING id`,
      )
      .bind(seconds, ratio, min, status)
      .first<{ id: number }>();
    return added ? { ok: true, value: { id: added.id } } : fail({ seconds: "options.admin_seconds_taken" }, 409);
  }
  const saved = await ctx.d1
    .prepare(
      `UPDATE option_durations SET seconds = ?2, profit_ratio = ?3, min_amount = ?4, status = ?5
        WHERE id = ?1
          AND NOT EXISTS (SELECT 1 FROM option_durations o WHERE o.seconds = ?2 AND o.id <> ?1)
          AND (?5 = 1 OR EXISTS (SELECT 1 FROM option_durations o WHERE o.status = 1 AND o.id <> ?1))
        RETURNING id`,
    )
    .bind(id, seconds, ratio, min, status)
    .first<{ id: number }>();
  if (saved) return { ok: true, value: { id: saved.id } };
  // Why not: the row is missing, the length is taken, or it was the last one on offer.
  const [row, taken] = await ctx.d1.batch([
    ctx.d1.prepare("SELECT id FROM option_durations WHERE id = ?1").bind(id),
    ctx.d1.prepare("SELECT id FROM option_durations WHERE seconds = ?1 AND id <> ?2").bind(seconds, id),
  ]);
  if (!row!.results.length) return fail({ form: "errors.not_found" }, 404);
  if (taken!.results.length) return fail({ seconds: "options.admin_seconds_taken" }, 409);
  return fail({ status: "options.admin_last_open" }, 409);
}

/**
 * Sets what a wrong option costs from now on: 0 the whole stake, 1 only the profit figure (options
 * already bought keep the level they were bought with). The settings' cache counter is bumped in
 * the same batch.
 */
export async function saveOptionLossLevel(
  ctx: ServiceContext,
  operator: SessionUser,
  value: string,
): Promise<Outcome<{ lossLevel: number }>> {
  assertOperator(operator);
  if (value !== "0" && value !== "1") return fail({ loss_level: "errors.bad_request" });
  const level = Number(value);
  await ctx.d1.batch([
    ctx.d1.prepare("UPDATE base_settings SET micro_loss_level = ?2 WHERE company_id = ?1").bind(MAIN_COMPANY_ID, level),
    bumpStatement(ctx.d1, "settings"),
  ]);
  forgetVersions();
  return { ok: true, value: { lossLevel: level } };
}

/**
 * Replaces the preset stakes with the list typed ("10, 50, 100"), in one batch. Rows are reused in
 * order and the rest marked removed (status 0) rather than deleted, so the seed's fixed ids never
 * bring an old amount back.
 */
export async function saveOptionStakes(ctx: ServiceContext, operator: SessionUser, text: string): Promise<Outcome<{ amounts: Micros[] }>> {
  assertOperator(operator);
  const parsed = parseStakeList(text, MAX_STAKE);
  if (!parsed.ok) return fail({ amounts: `options.admin_stakes_${parsed.error}` });
  const { results: rows } = await ctx.d1.prepare("SELECT id FROM option_amounts ORDER BY sort, id").all<{ id: number }>();
  const statements = [ctx.d1.prepare("UPDATE option_amounts SET status = 0")];
  parsed.value.forEach((amount, i) => {
    const row = rows[i];
    statements.push(
      row
        ? ctx.d1.prepare("UPDATE option_amounts SET amount = ?2, sort = ?3, status = 1 WHERE id = ?1").bind(row.id, amount, i + 1)
        : ctx.d1.prepare("INSERT INTO option_amounts (amount, sort, status) VALUES (?1, ?2, 1)").bind(amount, i + 1),
    );
  });
  await ctx.d1.batch(statements);
  return { ok: true, value: { amounts: parsed.value } };
}

export interface OptionRow {
  id: number;
  userId: number;
  accountId: number;
  instrumentId: number;
  code: string;
  direction: 1 | 2;
  amount: Micros;
  profitRatio: string;
  seconds: number;
  lossLevel: number;
  precision: number;
  openPrice: number;
  openTickAt: number;
  openFeed: string;
  expiresAt: number;
  status: number;
  endPrice: number | null;
  endTickAt: number | null;
  endFeed: string | null;
  late: number;
  profit: Micros | null;
  createdAt: number;
  settledAt: number | null;
  updatedAt: number;
}

const OPTION_COLUMNS = `id, user_id AS userId, account_id AS accountId, instrument_id AS instrumentId, code, direction, amount,
  profit_ratio AS profitRatio, seconds, loss_level AS lossLevel, precision, open_price AS openPrice, open_tick_at AS openTickAt,
  open_feed AS openFeed, expires_at AS expiresAt, status, end_price AS endPrice, end_tick_at AS endTickAt, end_feed AS endFeed,
  late, profit, created_at AS createdAt, settled_at AS settledAt, updated_at AS updatedAt`;

export type BuyError =
  | "errors.instrument_not_found"
  | "errors.bad_request"
  | "errors.unknown_duration"
  | "errors.amount_required"
  | "errors.amount_invalid"
  | "errors.amount_min"
  | "errors.amount_max"
  | "errors.market_closed"
  | "errors.prices_stale"
  | "errors.insufficient_stake"
  | "errors.try_again";

export type BuyResult = { ok: true; value: OptionRow } | { ok: false; error: BuyError; field?: string; value?: string };

export interface BuyInput {
  instrumentId: number;
  /** type: 1 up, 2 down. */
  direction: number;
  /** number: the stake as typed (USD, at most 2 decimals). */
  amount: string;
  /** seconds: one of the durations on offer. */
  seconds: number;
  requestKey?: string;
}

export function optionMessage(result: { error: string; value?: string }) {
  return result.value === undefined ? result.error : `${result.error}|${result.value}`;
}

async function optionsAccountId(ctx: ServiceContext, userId: number): Promise<number | null> {
  const row = await ctx.d1
    .prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Options.kind)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Buys an option: the stake moves to the locked balance of the options account, with the option row, in one transaction. */
export async function buyOption(ctx: ServiceContext, userId: number, input: BuyInput): Promise<BuyResult> {
  const instrument = await findInstrument(ctx, input.instrumentId);
  if (!instrument) return { ok: false, error: "errors.instrument_not_found", field: "forex_id" };
  const quoted = quoteOf(ctx, instrument.code);
  quoted.catch(() => {});
  const direction = input.direction === Direction.Up ? Direction.Up : input.direction === Direction.Down ? Direction.Down : null;
  if (direction === null) return { ok: false, error: "errors.bad_request", field: "type" };
  const { durations, lossLevel: level } = await optionTerms(ctx);
  const duration = durations.find((d) => d.seconds === input.seconds);
  if (!duration) return { ok: false, error: "errors.unknown_duration", field: "seconds" };
  if (!input.amount.trim()) return { ok: false, error: "errors.amount_required", field: "number" };
  const amount = parseAmount(input.amount, 2);
  if (amount === null || amount <= 0) return { ok: false, error: "errors.amount_invalid", field: "number" };
  if (amount < duration.minAmount)
    return { ok: false, error: "errors.amount_min", field: "number", value: String(duration.minAmount / 1_000_000) };
  if (amount > MAX_STAKE) return { ok: false, error: "errors.amount_max", field: "number", value: "1000000" };
  const { quote, stale, feed } = await quoted;
  if (!quote || quote.MarketStatus !== 1) return { ok: false, error: "errors.market_closed" };
  if (stale) return { ok: false, error: "errors.prices_stale" };
  const accountId = await optionsAccountId(ctx, userId);
  if (accountId === null) return { ok: false, error: "errors.try_again" };
  const key = `option_open:${userId}:${input.requestKey && /^[A-Za-z0-9_-]{8,64}$/.test(input.requestKey) ? input.requestKey : crypto.randomUUID()}`;
  const now = Date.now();
  const openTickAt = quote.time || now;
  const insert = ctx.d1
    .prepare(
      `INSERT INTO options (user_id, account_id, instrument_id, code, direction, amount, profit_ratio, seconds, loss_level, precision,
         open_price, open_tick_at, open_feed, expires_at, open_tx, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ${txOfKey("?15")}, ?16)
       RETURNING ${OPTION_COLUMNS}`,
    )
    .bind(
      userId,
      accountId,
      instrument.id,
      instrument.code,
      direction,
      amount,
      duration.profitRatio,
      duration.seconds,
      level,
      instrument.pricePrecision,
      priceToSteps(quote.Close, instrument.pricePrecision),
      openTickAt,
      feed,
      openTickAt + duration.seconds * 1000,
      key,
      now,
    );
  let row: OptionRow | null = null;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "option_stake",
      memo: "memo.option_stake",
      userId,
      postings: [
        { accountId, bucket: Bucket.Available, amount: -amount },
        { accountId, bucket: Bucket.Locked, amount },
      ],
      effects: [insert],
    });
    row = (posted.results?.[0]?.results?.[0] as OptionRow | undefined) ?? null;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds")
      return { ok: false, error: "errors.insufficient_stake", field: "number" };
    if (!(error instanceof LedgerError && error.code === "idempotency_conflict")) throw error;
  }
  row ??= await ctx.d1
    .prepare(`SELECT ${OPTION_COLUMNS} FROM options WHERE open_tx = ${txOfKey("?1")}`)
    .bind(key)
    .first<OptionRow>();
  if (!row) return { ok: false, error: "errors.try_again" };
  // The market room reads new options at the start of each tick (the price read above keeps it running).
  return { ok: true, value: row };
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

// ---- the engine's side ----

function engineOptionOf(row: OptionRow): EngineOption {
  return {
    id: row.id,
    userId: row.userId,
    code: row.code,
    direction: row.direction,
    amount: row.amount,
    profitRatio: row.profitRatio,
    lossLevel: row.lossLevel,
    precision: row.precision,
    openPrice: row.openPrice,
    expiresAt: row.expiresAt,
    updatedAt: row.updatedAt,
  };
}

/** Open options for the engine's expiry index: all at start; then new ones (after `afterId`) and changed ones (as engineOrders). */
export async function engineOptions(
  ctx: ServiceContext,
  changedSince = 0,
  afterId = 0,
  page = LOAD_PAGE,
  filter?: ShardFilter,
): Promise<{
  open: EngineOption[];
  gone: number[];
  goneRows: { id: number; code: string; userId: number }[];
  watermark: number;
  lastId: number;
  more: boolean;
}> {
  const watermark = Date.now();
  const [rows, max] = await ctx.d1.batch([
    changedSince > 0
      ? ctx.d1
          .prepare(
            // new rows a page at a time (a burst is read over several ticks, never in one answer)
            `SELECT * FROM (SELECT ${OPTION_COLUMNS} FROM options WHERE id > ?2 ORDER BY id LIMIT ?3)
             UNION ALL
             SELECT ${OPTION_COLUMNS} FROM options WHERE status IN (1, 3) AND updated_at >= ?1 AND id <= ?2`,
          )
          .bind(changedSince, afterId, page)
      : // parked settlements wait for an operator (app/services/engine.server.ts), even across a restart
        // (a page by id: the start reads at most `page` rows per query)
        ctx.d1
          .prepare(
            `SELECT ${OPTION_COLUMNS} FROM options WHERE status = 1 AND id > ?1 AND id NOT IN (SELECT item_id FROM engine_parked WHERE kind = 'option')
               AND (?3 IS NULL OR (code IN (SELECT value FROM json_each(?3)) AND user_id % ?4 = ?5)) ORDER BY id LIMIT ?2`,
          )
          .bind(afterId, page, filter ? JSON.stringify(filter.codes) : null, filter?.parts ?? 1, filter?.part ?? 0),
    ctx.d1.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM options"),
  ]);
  const open: EngineOption[] = [];
  const gone: number[] = [];
  const goneRows: { id: number; code: string; userId: number }[] = [];
  let fresh = 0;
  let lastFresh = afterId;
  for (const row of rows!.results as OptionRow[]) {
    if (row.id > afterId) {
      fresh += 1;
      lastFresh = Math.max(lastFresh, row.id);
    }
    if (row.status === OptionStatus.Open) open.push(engineOptionOf(row));
    else {
      gone.push(row.id);
      goneRows.push({ id: row.id, code: row.code, userId: row.userId });
    }
  }
  // a catch-up that read a full page of new rows goes on from the last of them next time
  if (changedSince > 0 && fresh === page) return { open, gone, goneRows, watermark, lastId: lastFresh, more: true };
  return {
    open,
    gone,
    goneRows,
    watermark,
    lastId: (max!.results[0] as { id: number }).id,
    more: changedSince === 0 && open.length === page,
  };
}

/**
 * Settles every option due in one tick in ONE D1 batch (the options travel as one JSON
 * parameter; the statement count does not depend on how many): each option's unique settlement
 * key (INSERT OR IGNORE … WHERE it is still open), one ledger transaction per option and its
 * entries, balances and the per-transaction check, the options' new state.
 *   win:  locked −stake, available +(stake + profit), options platform account −profit;
 *   loss: locked −stake, available +(what the loss leaves), options platform account +loss.
 */
export async function settleOptions(ctx: ServiceContext, req: OptionSettlementRequest): Promise<OptionSettlementResult> {
  const db = ctx.d1;
  const b = req.batchId;
  const items = JSON.stringify(
    req.items.map((i) => ({ id: i.id, p: i.endPrice, t: i.endTickAt, f: i.endFeed, l: i.late ? 1 : 0, pl: i.profit, po: i.payout })),
  );
  const statements = [
    openBatch(db, b),
    db
      .prepare(
        `INSERT OR IGNORE INTO option_settlements (option_id, batch_id, end_price, end_tick_at, end_feed, late, profit, payout)
         SELECT o.id, ?1, json_extract(j.value, '$.p'), json_extract(j.value, '$.t'), json_extract(j.value, '$.f'), json_extract(j.value, '$.l'),
                json_extract(j.value, '$.pl'), json_extract(j.value, '$.po')
           FROM json_each(?2) j CROSS JOIN options o ON o.id = json_extract(j.value, '$.id') AND o.status = 1
         RETURNING option_id`,
      )
      .bind(b, items),
    db
      .prepare(
        `INSERT INTO ledger_transactions (idempotency_key, kind, memo, user_id, batch_id)
         SELECT 'option_settle:' || s.option_id, 'option_settle',
                CASE WHEN s.profit >= 0 THEN 'memo.option_win' ELSE 'memo.option_loss' END, o.user_id, ?1
           FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1 ORDER BY s.option_id`,
      )
      .bind(b),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
         SELECT t.id, e.account_id, e.bucket, e.amount FROM (
           SELECT s.option_id AS oid, o.account_id AS account_id, 1 AS bucket, -o.amount AS amount, 1 AS n
             FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1
           UNION ALL
           SELECT s.option_id, o.account_id, 0, s.payout, 2
             FROM option_settlements s JOIN options o ON o.id = s.option_id WHERE s.batch_id = ?1
           UNION ALL
           -- the other side: the options pool, or the demo one for a demo user's option
           SELECT s.option_id, CASE WHEN u.is_demo = 1 THEN ?3 ELSE ?2 END, 0, o.amount - s.payout, 3
             FROM option_settlements s JOIN options o ON o.id = s.option_id JOIN users u ON u.id = o.user_id WHERE s.batch_id = ?1
         ) e JOIN ledger_transactions t ON t.idempotency_key = 'option_settle:' || e.oid
          WHERE e.amount <> 0 ORDER BY e.oid, e.n`,
      )
      .bind(b, PlatformAccount.Options.id, PlatformAccount.DemoOptions.id),
    ...batchPostingStatements(db, b),
    db
      .prepare(
        `UPDATE options SET status = 3, end_price = s.end_price, end_tick_at = s.end_tick_at, end_feed = s.end_feed, late = s.late,
                profit = s.profit, settled_at = ?2, updated_at = ?2
           FROM option_settlements s WHERE s.batch_id = ?1 AND s.option_id = options.id`,
      )
      .bind(b, req.time),
  ];
  const results = await postBatch(db, statements);
  const settled = new Set(((results[1]!.results ?? []) as { option_id: number }[]).map((r) => r.option_id));
  return { settled: req.items.filter((i) => settled.has(i.id)).map((i) => ({ id: i.id, userId: i.userId, profit: i.profit })) };
}
