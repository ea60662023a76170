// The compact ledger's migration (0013_compact_ledger; docs/decisions/003-money-and-ledger.md "A
// compact ledger"), in workerd on a database of its own: the migrations before it are applied,
// rows are written in the shapes the code before it wrote (text transaction ids, text batch ids,
// references by id or by idempotency key), then 0013 runs. Every row is kept, every reference
// points at the same transaction as before, the balances still equal their entries, and a replay
// of an old key is still recognised.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "~/lib/encoding";
import { checkInvariants } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";

const db = () => env.MIGRATION_DB;
const USD = 1_000_000;
const HASH = "a".repeat(64);

/** The shape of a transaction of the code before: text id, text batch id, 64-digit hash. */
function oldTx(
  id: string,
  key: string,
  kind: string,
  userId: number | null,
  batch: string | null,
  entries: [account: number, bucket: number, amount: number][],
  hash = HASH,
) {
  return [
    db()
      .prepare(
        "INSERT INTO ledger_transactions (id, idempotency_key, request_hash, kind, memo, user_id, batch_id) VALUES (?1, ?2, ?3, ?4, '', ?5, ?6)",
      )
      .bind(id, key, batch ?? hash, kind, userId, batch),
    ...entries.map(([account, bucket, amount]) =>
      db()
        .prepare("INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) VALUES (?1, ?2, ?3, ?4)")
        .bind(id, account, bucket, amount),
    ),
    ...entries.map(([account, bucket, amount]) =>
      db()
        .prepare(
          bucket === 0
            ? "UPDATE accounts SET balance = balance + ?2 WHERE id = ?1"
            : "UPDATE accounts SET lock_balance = lock_balance + ?2 WHERE id = ?1",
        )
        .bind(account, amount),
    ),
  ];
}

let user = 0;
let funding = 0;
let contract = 0;
const before: Record<string, unknown> = {};

beforeAll(async () => {
  const migrations = env.TEST_MIGRATIONS;
  const at = migrations.findIndex((m) => m.name.startsWith("0013_"));
  expect(at).toBeGreaterThan(0);
  await applyD1Migrations(db(), migrations.slice(0, at));
  // platform accounts (the seed's) and one user with two accounts
  await db().batch([
    db().prepare("INSERT INTO companies (id, name) VALUES (1, 'Bourse')"),
    ...[1, 2, 3, 5, 6].map((id) =>
      db()
        .prepare("INSERT OR IGNORE INTO accounts (id, platform_code, kind, account_type_id) VALUES (?1, 'platform:' || ?1, 'platform', 0)")
        .bind(id),
    ),
  ]);
  user = (await db()
    .prepare("INSERT INTO users (uid, company_id, email, invite_code) VALUES ('m1', 1, 'm1@example.com', 'M1') RETURNING id")
    .first<{ id: number }>())!.id;
  funding = (await db()
    .prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES (?1, 'funding', 1) RETURNING id")
    .bind(user)
    .first<{ id: number }>())!.id;
  contract = (await db()
    .prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES (?1, 'contract', 3) RETURNING id")
    .bind(user)
    .first<{ id: number }>())!.id;
  const d = db();
  // the transfer's hash as the code before stored it (all 64 digits of the request's SHA-256)
  const transferHash = await sha256Hex(
    JSON.stringify([
      "transfer",
      "",
      user,
      [
        [funding, 0, -300 * USD],
        [contract, 0, 300 * USD],
      ],
    ]),
  );
  await d.batch([
    // a deposit (post(): referred to by its id) and a transfer (by its id)
    ...oldTx("11111111-1111-4111-8111-111111111111", "deposit:1", "deposit", user, null, [
      [6, 0, -1000 * USD],
      [funding, 0, 1000 * USD],
    ]),
    d
      .prepare(
        "INSERT INTO deposits (user_id, type, currency_code, amount, proof_upload_id, status, request_id, ledger_tx) VALUES (?1, 0, 'USDT', ?2, 'u', 1, 'r1', '11111111-1111-4111-8111-111111111111')",
      )
      .bind(user, 1000 * USD),
    ...oldTx(
      "22222222-2222-4222-8222-222222222222",
      "transfer:1:n",
      "transfer",
      user,
      null,
      [
        [funding, 0, -300 * USD],
        [contract, 0, 300 * USD],
      ],
      transferHash,
    ),
    d
      .prepare(
        "INSERT INTO transfers (user_id, from_kind, to_kind, amount, ledger_tx) VALUES (?1, 'funding', 'contract', ?2, '22222222-2222-4222-8222-222222222222')",
      )
      .bind(user, 300 * USD),
    // an order opened (post(): open_tx is its key), closed by the engine's tick (a batch)
    ...oldTx("33333333-3333-4333-8333-333333333333", "contract_open:1:abc", "trade_margin", user, null, [
      [contract, 0, -51 * USD],
      [contract, 1, 50 * USD],
      [1, 0, USD],
    ]),
    d
      .prepare(
        `INSERT INTO contract_orders (id, user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, margin, fee, open_tx, updated_at)
       VALUES (7, ?1, ?2, 1, 'BTCUSDT', 1, 3, 100, 1000000, 2, 10, 2, 5000000, 5000000, ?3, ?4, 'contract_open:1:abc', 1)`,
      )
      .bind(user, contract, 50 * USD, USD),
    d
      .prepare(
        "INSERT INTO order_exits (order_id, from_status, batch_id, reason, price, profit) VALUES (7, 1, 'tick:1:x', 'stop_loss', 4900000, ?1)",
      )
      .bind(-10 * USD),
    ...oldTx("tick:1:x:7:1", "contract_exit:7", "trade_settle", user, "tick:1:x", [
      [contract, 1, -50 * USD],
      [contract, 0, 40 * USD],
      [2, 0, 10 * USD],
    ]),
    // a second order closed by hand: its exit's "batch" was its key
    ...oldTx("44444444-4444-4444-8444-444444444444", "contract_open:1:def", "trade_margin", user, null, [
      [contract, 0, -20 * USD],
      [contract, 1, 20 * USD],
    ]),
    d
      .prepare(
        `INSERT INTO contract_orders (id, user_id, account_id, instrument_id, code, side, status, lots, contract_size, precision, leverage, margin_mode, origin_price, open_price, margin, fee, open_tx, updated_at)
       VALUES (8, ?1, ?2, 1, 'BTCUSDT', 1, 3, 40, 1000000, 2, 10, 2, 5000000, 5000000, ?3, 0, 'contract_open:1:def', 1)`,
      )
      .bind(user, contract, 20 * USD),
    d.prepare(
      "INSERT INTO order_exits (order_id, from_status, batch_id, reason, price, profit) VALUES (8, 1, 'contract_exit:8', 'manual', 5000000, 0)",
    ),
    ...oldTx("55555555-5555-4555-8555-555555555555", "contract_exit:8", "trade_settle", user, null, [
      [contract, 1, -20 * USD],
      [contract, 0, 20 * USD],
    ]),
    // a fund subscription (sub_tx is its key) paid one day by the job (a batch, one transaction per subscription-day)
    ...oldTx("66666666-6666-4666-8666-666666666666", "fund_subscribe:1:r", "fund_subscribe", user, null, [
      [funding, 0, -100 * USD],
      [5, 0, 100 * USD],
    ]),
    d
      .prepare(
        `INSERT INTO funds (id, title, currency_code, dividend_percentage, starting_sub_amount, lock_dividend_days, max_sub_amount) VALUES (1, 'F', 'USDT', '1', ?1, 5, ?2)`,
      )
      .bind(USD, 1000 * USD),
    d
      .prepare(
        `INSERT INTO fund_subscriptions (id, user_id, fund_id, share_amount, day_profit, sum_profit, lock_days, liquidated_damages, start_day, end_day, request_id, sub_tx)
       VALUES (3, ?1, 1, ?2, ?3, ?3, 5, '5', '2042-01-02', '2042-01-06', 'r', 'fund_subscribe:1:r')`,
      )
      .bind(user, 100 * USD, USD),
    ...oldTx("fi-abc:3:2042-01-02", "fund_income:3:2042-01-02", "fund_income", user, "fi-abc", [
      [5, 0, -USD],
      [funding, 0, USD],
    ]),
    d
      .prepare(
        "INSERT INTO fund_incomes (sub_id, user_id, day, interest, ledger_tx) VALUES (3, ?1, '2042-01-02', ?2, 'fi-abc:3:2042-01-02')",
      )
      .bind(user, USD),
  ]);
  const rows = async (sql: string) => (await db().prepare(sql).all()).results;
  before.balances = await rows("SELECT id, balance, lock_balance FROM accounts ORDER BY id");
  before.keys = await rows(
    "SELECT t.idempotency_key AS k, t.kind, COUNT(e.id) AS n, SUM(e.amount) AS total FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id ORDER BY k",
  );
  await applyD1Migrations(db(), migrations.slice(0, at + 1));
});

const keyOf = async (sql: string) =>
  (await db().prepare(`SELECT t.idempotency_key AS k FROM ledger_transactions t WHERE t.id = (${sql})`).first<{ k: string }>())?.k;

describe("the compact ledger's migration", () => {
  it("keeps every transaction, entry and balance; transaction ids become integers", async () => {
    const rows = async (sql: string) => (await db().prepare(sql).all()).results;
    expect(await rows("SELECT id, balance, lock_balance FROM accounts ORDER BY id")).toEqual(before.balances);
    expect(
      await rows(
        "SELECT t.idempotency_key AS k, t.kind, COUNT(e.id) AS n, SUM(e.amount) AS total FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id ORDER BY k",
      ),
    ).toEqual(before.keys);
    expect(
      await rows(
        "SELECT DISTINCT typeof(id) AS t FROM ledger_transactions UNION SELECT DISTINCT typeof(transaction_id) FROM ledger_entries",
      ),
    ).toEqual([{ t: "integer" }]);
    expect(await checkInvariants(db())).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("every reference to a transaction points at the same one as before", async () => {
    expect(await keyOf("SELECT ledger_tx FROM deposits")).toBe("deposit:1");
    expect(await keyOf("SELECT ledger_tx FROM transfers")).toBe("transfer:1:n");
    expect(await keyOf("SELECT open_tx FROM contract_orders WHERE id = 7")).toBe("contract_open:1:abc");
    expect(await keyOf("SELECT open_tx FROM contract_orders WHERE id = 8")).toBe("contract_open:1:def");
    expect(await keyOf("SELECT sub_tx FROM fund_subscriptions WHERE id = 3")).toBe("fund_subscribe:1:r");
    expect(await keyOf("SELECT ledger_tx FROM fund_incomes WHERE sub_id = 3")).toBe("fund_income:3:2042-01-02");
  });

  it("batches get integer ids shared by their rows; a single close has none", async () => {
    const exits = (
      await db().prepare("SELECT order_id AS id, batch_id AS b FROM order_exits ORDER BY order_id").all<{ id: number; b: number | null }>()
    ).results;
    expect(exits[1]).toEqual({ id: 8, b: null });
    expect(typeof exits[0]!.b).toBe("number");
    const tx = await db()
      .prepare("SELECT batch_id AS b, request_hash AS h FROM ledger_transactions WHERE idempotency_key = 'contract_exit:7'")
      .first<{ b: number; h: string | null }>();
    expect(tx).toEqual({ b: exits[0]!.b, h: null });
    const batches = (await db().prepare("SELECT id FROM ledger_batches ORDER BY id").all<{ id: number }>()).results.map((r) => r.id);
    expect(batches).toHaveLength(2);
    expect(batches).toContain(exits[0]!.b);
  });

  it("an old key is still recognised (a replay answers the old transaction) and new transactions follow the old ids", async () => {
    const old = await db().prepare("SELECT id FROM ledger_transactions WHERE idempotency_key = 'transfer:1:n'").first<{ id: number }>();
    const again = await post(db(), {
      idempotencyKey: "transfer:1:n",
      kind: "transfer",
      userId: user,
      postings: [
        { accountId: funding, amount: -300 * USD },
        { accountId: contract, amount: 300 * USD },
      ],
    });
    expect(again).toEqual({ transactionId: old!.id, replayed: true });
    // a different request under the old key is refused, nothing moves
    await expect(
      post(db(), {
        idempotencyKey: "transfer:1:n",
        kind: "transfer",
        userId: user,
        postings: [
          { accountId: funding, amount: -USD },
          { accountId: contract, amount: USD },
        ],
      }),
    ).rejects.toThrow(/different request/);
    const fresh = await post(db(), {
      idempotencyKey: "transfer:1:new",
      kind: "transfer",
      userId: user,
      postings: [
        { accountId: funding, amount: -USD },
        { accountId: contract, amount: USD },
      ],
    });
    const max = await db()
      .prepare("SELECT MAX(id) AS id FROM ledger_transactions WHERE idempotency_key <> 'transfer:1:new'")
      .first<{ id: number }>();
    expect(fresh.transactionId).toBeGreaterThan(max!.id);
    const replay = await post(db(), {
      idempotencyKey: "transfer:1:new",
      kind: "transfer",
      userId: user,
      postings: [
        { accountId: funding, amount: -USD },
        { accountId: contract, amount: USD },
      ],
    });
    expect(replay).toEqual({ transactionId: fresh.transactionId, replayed: true });
    expect(await checkInvariants(db())).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });
});
