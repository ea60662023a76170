/**
 * What the engine's rooms read of timed options (issue 9, ADR 011, 018): an option as the engine
 * holds it, the open options at a room's start and the catch-up of each tick.
 */
import type { ServiceContext } from "~/context.server";
import { LOAD_PAGE, type EngineOption } from "~/domain/engine";
import type { ShardFilter } from "~/domain/engine-shards";
import { OptionStatus } from "~/domain/option";
import { OPTION_COLUMNS } from "./columns";
import type { OptionRow } from "./views";

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
