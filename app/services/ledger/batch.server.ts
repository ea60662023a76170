/**
 * The engine's set-based batches: many transactions posted in one D1 batch whose statement count
 * does not depend on how many transactions it holds (see batchPostingStatements). The batch ids
 * come from newBatchId (~/domain/ledger).
 */
import { LedgerError } from "~/services/ledger/post.server";

/**
 * Many transactions in one set-based batch (the engine's tick): the caller's statements start with
 * openBatch (the batch's row), insert the transactions (tagged with `batch_id` = batchId, each with
 * its own UNIQUE idempotency key) and their entries; this adds, inside the same batch:
 *   - removal of the batch's transactions that ended up with no entries (nothing moved);
 *   - one balance UPDATE … FROM the batch's entries grouped by account (the accounts CHECK aborts
 *     any overdraft of a user account, and with it the whole batch);
 *   - each transaction's imbalance from its entries (its CHECK aborts the batch unless each sums to 0).
 * The statement count does not depend on how many transactions the batch holds.
 */
export function batchPostingStatements(db: D1Database, batchId: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        "DELETE FROM ledger_transactions WHERE batch_id = ?1 AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transaction_id = ledger_transactions.id)",
      )
      .bind(batchId),
    db
      .prepare(
        `UPDATE accounts SET balance = accounts.balance + d.available, lock_balance = accounts.lock_balance + d.locked
           FROM (SELECT e.account_id,
                        SUM(CASE WHEN e.bucket = 0 THEN e.amount ELSE 0 END) AS available,
                        SUM(CASE WHEN e.bucket = 1 THEN e.amount ELSE 0 END) AS locked
                   FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                  WHERE t.batch_id = ?1 GROUP BY e.account_id) AS d
          WHERE accounts.id = d.account_id`,
      )
      .bind(batchId),
    db
      .prepare(
        "UPDATE ledger_transactions SET imbalance = (SELECT SUM(e.amount) FROM ledger_entries e WHERE e.transaction_id = ledger_transactions.id) WHERE batch_id = ?1",
      )
      .bind(batchId),
  ];
}

/**
 * The first statement of a set-based batch: its row in ledger_batches. The id is random
 * (newBatchId), so the PRIMARY KEY makes a batch that drew an id already used fail whole, never
 * mix its rows with another batch's. `mark` (the fund-income job) records where the batch's rows start.
 */
export function openBatch(db: D1Database, batchId: number, mark: string | null = null): D1PreparedStatement {
  return mark === null
    ? db.prepare("INSERT INTO ledger_batches (id) VALUES (?1)").bind(batchId)
    : db.prepare(`INSERT INTO ledger_batches (id, mark) VALUES (?1, (${mark}))`).bind(batchId);
}

export async function postBatch(db: D1Database, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  try {
    return await db.batch(statements);
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (message.includes("ledger_transactions_balanced")) throw new LedgerError("invalid", "entries do not sum to zero");
    if (message.includes("CHECK constraint failed")) throw new LedgerError("insufficient_funds", "insufficient balance");
    throw error;
  }
}
