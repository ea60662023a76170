/**
 * The ledger: the one service through which every movement of money goes.
 *
 * A movement is a double-entry transaction posted as ONE D1 batch (one SQL transaction):
 *   1. INSERT the transaction row (its id is an integer the database assigns); its idempotency_key
 *      is UNIQUE, so a retry or a concurrent duplicate fails here and its whole batch rolls back
 *      (exactly one effect per key). Inside the batch, the key finds the id (txOfKey);
 *   2. caller-supplied guard statements (e.g. a unique "order leaves state" key);
 *   3. one entry row and one balance update per posting; the accounts CHECK makes any
 *      overdraft of a user account abort the whole batch;
 *   4. caller-supplied statements that belong to the same effect (e.g. an order row).
 * Balances are never read in one call and written in another.
 * See docs/decisions/003-money-and-ledger.md.
 */
import type { LedgerKind } from "~/domain/ledger";
import { assertMicros, type Micros } from "~/domain/money";
import { sha256Hex } from "~/lib/encoding";
import { Bucket } from "~/services/ledger/accounts.server";

export interface Posting {
  accountId: number;
  bucket?: Bucket;
  amount: Micros;
}

export interface PostRequest {
  idempotencyKey: string;
  kind: LedgerKind;
  /** Stored as is; the account log translates it (memo keys live in the locale files). */
  memo?: string;
  userId?: number | null;
  postings: Posting[];
  /** Statements that must succeed before money moves (e.g. unique state-transition keys). */
  guards?: D1PreparedStatement[];
  /** Statements that belong to the same effect (order rows, status changes). */
  effects?: D1PreparedStatement[];
}

export interface PostResult {
  transactionId: number;
  replayed: boolean;
  /** The batch's statement results (absent for a replay): e.g. an effect's RETURNING rows. */
  results?: D1Result[];
}

export class LedgerError extends Error {
  constructor(
    readonly code: "insufficient_funds" | "idempotency_conflict" | "guard_failed" | "invalid" | "empty" | "session_ended",
    message: string,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

function validate(req: PostRequest) {
  if (!req.idempotencyKey || req.idempotencyKey.length > 200) {
    throw new LedgerError("invalid", "idempotency key required");
  }
  if (req.postings.length < 2) throw new LedgerError("invalid", "a transaction needs two postings");
  let sum = 0;
  for (const p of req.postings) {
    assertMicros(p.amount);
    if (p.amount === 0) throw new LedgerError("invalid", "zero posting");
    if (!Number.isSafeInteger(p.accountId)) throw new LedgerError("invalid", "bad account");
    sum += p.amount;
  }
  if (sum !== 0) throw new LedgerError("invalid", `postings sum to ${sum}, not zero`);
}

function requestHash(req: PostRequest) {
  return sha256Hex(
    JSON.stringify([req.kind, req.memo ?? "", req.userId ?? null, req.postings.map((p) => [p.accountId, p.bucket ?? 0, p.amount])]),
  );
}

/**
 * The id of the transaction with the idempotency key bound at `param`, inside the batch that
 * inserted it (the key is UNIQUE and indexed: one lookup).
 */
export function txOfKey(param: string): string {
  return `(SELECT id FROM ledger_transactions WHERE idempotency_key = ${param})`;
}

/** What a replay must match: 16 hex digits (64 bits) of the request's SHA-256 are stored. */
const STORED_HASH = 16;
function sameRequest(stored: string | null, hash: string) {
  return stored !== null && stored.length >= STORED_HASH && hash.startsWith(stored);
}

/** Postings per INSERT (3 bound values each, under D1's 100 per statement). */
const ENTRIES_PER_INSERT = 24;

/** The transaction's entries (found by its key, ?1): one multi-row INSERT per 24 postings, in order. */
function entryStatements(db: D1Database, key: string, postings: Posting[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < postings.length; i += ENTRIES_PER_INSERT) {
    const part = postings.slice(i, i + ENTRIES_PER_INSERT);
    const rows = part.map((_, j) => `(${j}, ?${2 + 3 * j}, ?${3 + 3 * j}, ?${4 + 3 * j})`).join(", ");
    const values = part.flatMap((p) => [p.accountId, p.bucket ?? Bucket.Available, p.amount]);
    out.push(
      db
        .prepare(
          `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount)
           SELECT t.id, v.column2, v.column3, v.column4 FROM (VALUES ${rows}) v CROSS JOIN ledger_transactions t
            WHERE t.idempotency_key = ?1 ORDER BY v.column1`,
        )
        .bind(key, ...values),
    );
  }
  return out;
}

/**
 * One statement moving every balance a transaction touches by exactly its entries, grouped by
 * account (both buckets at once): the accounts' CHECKs see each account's final balances.
 */
function balancesFromEntries(db: D1Database, key: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE accounts SET balance = accounts.balance + d.available, lock_balance = accounts.lock_balance + d.locked
         FROM (SELECT account_id,
                      SUM(CASE WHEN bucket = 0 THEN amount ELSE 0 END) AS available,
                      SUM(CASE WHEN bucket = 1 THEN amount ELSE 0 END) AS locked
                 FROM ledger_entries WHERE transaction_id = ${txOfKey("?1")} GROUP BY account_id) AS d
        WHERE accounts.id = d.account_id`,
    )
    .bind(key);
}

/**
 * Posts one transaction atomically. A replay of the same key with the same postings returns
 * the original transaction (replayed: true); with different postings it is refused.
 */
export async function post(db: D1Database, req: PostRequest): Promise<PostResult> {
  validate(req);
  const hash = await requestHash(req);
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        "INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo, user_id) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
      )
      .bind(req.idempotencyKey, hash.slice(0, STORED_HASH), req.kind, req.memo ?? "", req.userId ?? null),
    ...(req.guards ?? []),
  ];
  statements.push(...entryStatements(db, req.idempotencyKey, req.postings), balancesFromEntries(db, req.idempotencyKey));
  statements.push(...(req.effects ?? []));
  const firstEffect = statements.length - (req.effects?.length ?? 0);
  try {
    const results = await db.batch(statements);
    const id = (results[0]!.results?.[0] as { id: number } | undefined)?.id ?? 0;
    return { transactionId: id, replayed: false, results: results.slice(firstEffect) };
  } catch (error) {
    return handleBatchError(db, req.idempotencyKey, hash, String((error as Error)?.message ?? error), error);
  }
}

/** A failed batch: a replay of the key returns the original; constraint failures become LedgerErrors. */
async function handleBatchError(db: D1Database, key: string, hash: string, message: string, error: unknown): Promise<PostResult> {
  if (message.includes("ledger_transactions.idempotency_key")) {
    const existing = await db
      .prepare("SELECT id, request_hash FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(key)
      .first<{ id: number; request_hash: string | null }>();
    if (existing && sameRequest(existing.request_hash, hash)) return { transactionId: existing.id, replayed: true };
    throw new LedgerError("idempotency_conflict", "idempotency key reused with a different request");
  }
  if (message.includes("session_valid") || message.includes("session_guard"))
    throw new LedgerError("session_ended", "the session has ended");
  if (message.includes("CHECK constraint failed")) throw new LedgerError("insufficient_funds", "insufficient balance");
  if (message.includes("UNIQUE constraint failed")) throw new LedgerError("guard_failed", "already done");
  throw error;
}

/**
 * A set-based transaction: its entries are computed in SQL (INSERT … SELECT), for movements whose
 * amounts depend on balances at the moment of writing (a demo reset, an expiry sweep) and for the
 * engine's batches. Same invariants as post(), enforced inside the batch:
 *   - the UNIQUE idempotency key is inserted first (a replay returns the original);
 *   - balances move by exactly the transaction's entries (one UPDATE … FROM grouped entries),
 *     so the accounts CHECK aborts any overdraft of a user account;
 *   - the entries must sum to zero: the transaction's `imbalance` column is set from them and
 *     its CHECK (imbalance = 0) aborts the batch otherwise; a transaction without entries sets it
 *     to NULL and is refused the same way (LedgerError "empty": nothing is written).
 */
export interface SetPostRequest {
  idempotencyKey: string;
  kind: LedgerKind;
  memo?: string;
  userId?: number | null;
  /** What identifies the request for replays (the entries are computed, so they cannot be hashed). */
  payload: string;
  /**
   * Statements inserting this transaction's entries: INSERT INTO ledger_entries (transaction_id,
   * account_id, bucket, amount) SELECT …; they bind the idempotency key (given) as ?1 and take the
   * transaction's id as txOfKey("?1").
   */
  entries: (key: string) => D1PreparedStatement[];
  guards?: D1PreparedStatement[];
  effects?: D1PreparedStatement[];
}

export async function postSet(db: D1Database, req: SetPostRequest): Promise<PostResult> {
  if (!req.idempotencyKey || req.idempotencyKey.length > 200) throw new LedgerError("invalid", "idempotency key required");
  const key = req.idempotencyKey;
  const hash = await sha256Hex(JSON.stringify(["set", req.kind, req.memo ?? "", req.userId ?? null, req.payload]));
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        "INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo, user_id) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
      )
      .bind(key, hash.slice(0, STORED_HASH), req.kind, req.memo ?? "", req.userId ?? null),
    ...(req.guards ?? []),
    ...req.entries(key),
    balancesFromEntries(db, key),
    db
      .prepare(
        `UPDATE ledger_transactions
            SET imbalance = (SELECT CASE WHEN COUNT(*) = 0 THEN NULL ELSE SUM(amount) END FROM ledger_entries WHERE transaction_id = ledger_transactions.id)
          WHERE idempotency_key = ?1`,
      )
      .bind(key),
    ...(req.effects ?? []),
  ];
  try {
    const results = await db.batch(statements);
    return { transactionId: (results[0]!.results?.[0] as { id: number } | undefined)?.id ?? 0, replayed: false };
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (message.includes("ledger_transactions.imbalance") && message.includes("NOT NULL"))
      throw new LedgerError("empty", "nothing to move");
    if (message.includes("ledger_transactions_balanced")) throw new LedgerError("invalid", "entries do not sum to zero");
    return handleBatchError(db, req.idempotencyKey, hash, message, error);
  }
}
