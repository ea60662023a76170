/**
 * The operator's option terms (/admin/options): the durations with their profit ratios and
 * minimum stakes, the preset stakes, and what a wrong option costs.
 */
import type { ServiceContext } from "~/context.server";
import type { RowOf } from "~/db/columns";
import { parseDurationSeconds, parseProfitRatio, parseStakeList } from "~/domain/option";
import { parseAmount, type Micros } from "~/domain/money";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { bumpStatement, forgetVersions } from "~/services/cache.server";
import { assertOperator } from "~/services/operator.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { ALL_DURATION_COLUMNS } from "./columns";
import { MAX_STAKE, readTerms } from "./queries.server";

/* ---------------------------------------------------------------------------------------------
 * The operator's terms (/admin/options). Options already bought keep the terms snapshotted in
 * their row (ratio, seconds, loss level), so edits apply to new options only.
 * ------------------------------------------------------------------------------------------- */

/** A duration as the console edits it: every column. */
export type DurationRow = RowOf<typeof ALL_DURATION_COLUMNS>;

/** Every duration, offered or not, the preset stakes on offer and the loss level. */
export function allOptionTerms(ctx: ServiceContext, operator: SessionUser) {
  assertOperator(operator);
  return readTerms<DurationRow>(ctx, `SELECT ${ALL_DURATION_COLUMNS} FROM option_durations ORDER BY sort, seconds`);
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
