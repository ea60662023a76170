/**
 * The engine's parked settlements (docs/decisions/010-contract-engine.md, "Chunks and parking"):
 * an order exit, fill or option settlement whose batch failed alone on SETTLE_TRIES ticks is
 * written here by the market room and left as it is in the books; operators see the list at
 * /admin/engine and hand one back to the engine, which tries it again on its next tick.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import type { ParkedSettlement } from "~/domain/engine";
import { isJobMessage } from "~/domain/jobs";
import type { SessionUser } from "~/services/session.server";

/** Records settlements the engine gave up on (one statement; a repeat adds its tries). */
export async function parkSettlements(ctx: ServiceContext, items: ParkedSettlement[]): Promise<void> {
  if (items.length === 0) return;
  await ctx.d1
    .prepare(
      `INSERT INTO engine_parked (kind, item_id, user_id, reason, price, tries, error, parked_at)
       SELECT json_extract(value, '$.kind'), json_extract(value, '$.id'), json_extract(value, '$.userId'), json_extract(value, '$.reason'),
              json_extract(value, '$.price'), json_extract(value, '$.tries'), json_extract(value, '$.error'), json_extract(value, '$.at')
         FROM json_each(?1)
        WHERE true
       ON CONFLICT (kind, item_id) DO UPDATE SET tries = engine_parked.tries + excluded.tries, error = excluded.error, reason = excluded.reason,
                                                price = excluded.price, parked_at = excluded.parked_at`,
    )
    .bind(JSON.stringify(items))
    .run();
}

export interface ParkedRow {
  id: number;
  kind: "contract" | "option";
  itemId: number;
  uid: string | null;
  email: string | null;
  reason: string;
  code: string | null;
  /** The settlement price as the instrument shows it, and the instrument's precision. */
  price: number;
  precision: number;
  tries: number;
  error: string;
  parkedAt: number;
  /** Whether the order or option is still open in D1 (nothing moved since it was parked). */
  open: boolean;
}

/** Every parked settlement, newest first, with who it belongs to and whether it is still open. */
export async function parkedSettlements(context: AppContext, _operator: SessionUser): Promise<ParkedRow[]> {
  const { results } = await context.d1
    .prepare(
      `SELECT p.id, p.kind, p.item_id AS itemId, u.uid, u.email, p.reason, p.tries, p.error, p.parked_at AS parkedAt,
              COALESCE(i.show_code, o.code, op.code) AS code, p.price AS steps, COALESCE(o.precision, op.precision, 0) AS precision,
              CASE WHEN p.kind = 'contract' THEN o.status IN (0, 1) ELSE op.status = 1 END AS open
         FROM engine_parked p
         LEFT JOIN users u ON u.id = p.user_id
         LEFT JOIN contract_orders o ON p.kind = 'contract' AND o.id = p.item_id
         LEFT JOIN options op ON p.kind = 'option' AND op.id = p.item_id
         LEFT JOIN instruments i ON i.id = COALESCE(o.instrument_id, op.instrument_id)
        ORDER BY p.parked_at DESC, p.id DESC
        LIMIT 500`,
    )
    .all<Omit<ParkedRow, "price" | "open"> & { steps: number; open: number | null }>();
  return results.map(({ steps, open, ...row }) => ({ ...row, price: steps / 10 ** row.precision, open: open === 1 }));
}

/**
 * Hands a parked settlement back to the engine: the row goes, and the order or option (if still
 * open) is marked changed now, so the room's next catch-up reads it and indexes it again. One
 * batch; false when it was not parked (another operator handed it back first).
 */
export async function retryParked(context: AppContext, _operator: SessionUser, id: number): Promise<boolean> {
  const db = context.d1;
  const now = Date.now();
  const [, , gone] = await db.batch([
    db
      .prepare(
        "UPDATE contract_orders SET updated_at = ?2 WHERE id = (SELECT item_id FROM engine_parked WHERE id = ?1 AND kind = 'contract') AND status IN (0, 1)",
      )
      .bind(id, now),
    db
      .prepare(
        "UPDATE options SET updated_at = ?2 WHERE id = (SELECT item_id FROM engine_parked WHERE id = ?1 AND kind = 'option') AND status = 1",
      )
      .bind(id, now),
    db.prepare("DELETE FROM engine_parked WHERE id = ?1 RETURNING kind, item_id").bind(id),
  ]);
  return (gone?.results?.length ?? 0) > 0;
}

export interface DeadLetterRow {
  id: number;
  queue: string;
  /** The message as sent (a job chunk, e.g. fund income for a range of users and a day). */
  body: string;
  attempts: number;
  reason: string;
  createdAt: number;
}

/** Job messages that failed every delivery (app/services/jobs.server.ts), newest first. */
export async function deadLetters(context: AppContext, _operator: SessionUser): Promise<DeadLetterRow[]> {
  const { results } = await context.d1
    .prepare(
      "SELECT id, queue, body, attempts, reason, created_at AS createdAt FROM job_dead_letters ORDER BY created_at DESC, id DESC LIMIT 200",
    )
    .all<DeadLetterRow>();
  return results;
}

/**
 * Sends a dead job message to the jobs queue again (its chunk is idempotent per item and day, so
 * running it again pays nothing twice) and removes it from the list. False when it was not there.
 */
export async function requeueDeadLetter(context: AppContext, _operator: SessionUser, id: number): Promise<boolean> {
  const row = await context.d1.prepare("DELETE FROM job_dead_letters WHERE id = ?1 RETURNING body").bind(id).first<{ body: string }>();
  if (!row) return false;
  const body: unknown = JSON.parse(row.body);
  if (!isJobMessage(body)) return true; // a body this Worker does not know: nothing to run
  await context.env.JOBS.send(body, { contentType: "json" });
  return true;
}
