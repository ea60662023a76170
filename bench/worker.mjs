// The production build in workerd (Miniflare) for every bench module: the Worker as `wrangler
// deploy` bundles it, with the bindings wrangler.toml declares (Durable Object classes with
// SQLite, the JOBS queue's producer and consumers, D1, R2), so a new room class or queue needs no
// edit here. A fresh local D1 per start, migrated and seeded. Plus the bulk fixtures the modules
// share: users with accounts and sessions, and ledger postings written set-based.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { bin, root, run } from "../scripts/lib.mjs";
import { buildSeedStatements } from "../scripts/seed.mjs";
import { startD1Process } from "./d1-process.mjs";

const outdir = path.join(root, ".wrangler", "bench-build");
let built = false;
let starts = 0;

/** The bindings of wrangler.toml that the bench runs as they are declared. */
function declaredBindings() {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  return {
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    vars: workerOptions.bindings ?? {},
    durableObjects: workerOptions.durableObjects ?? {},
    queueProducers: workerOptions.queueProducers ?? {},
    queueConsumers: workerOptions.queueConsumers ?? {},
    r2Buckets: Object.keys(workerOptions.r2Buckets ?? {}),
    d1Databases: Object.keys(workerOptions.d1Databases ?? {}),
  };
}

/**
 * Starts the Worker. `heapWorker` adds a second worker, "engine-heap", running the same build with
 * its own EngineShard namespace (the market room never calls it) and the inspector on
 * `inspectorPort`, so one engine shard can be loaded alone in its own isolate and its heap read.
 * `warm: false` leaves the market room asleep (nothing indexes what a bench writes meanwhile).
 * `d1Process` runs D1 in a workerd process of its own, as on Cloudflare (bench/d1-process.mjs).
 */
export async function startWorker({
  heapWorker = false,
  inspectorPort,
  warm = true,
  vars = {},
  d1Process = process.env.BENCH_D1_PROCESS === "1",
} = {}) {
  if (!built) {
    rmSync(outdir, { recursive: true, force: true });
    run(bin("wrangler"), ["deploy", "--dry-run", `--outdir=${outdir}`], { stdio: ["ignore", "ignore", "inherit"] });
    built = true;
  }
  const persist = path.join(root, ".wrangler", `bench-state-${process.pid}-${starts++}`);
  rmSync(persist, { recursive: true, force: true });
  const declared = declaredBindings();
  const modules = [
    { type: "ESModule", path: path.join(outdir, "server.js"), contents: readFileSync(path.join(outdir, "server.js"), "utf8") },
  ];
  const worker = {
    name: "main",
    modules,
    compatibilityDate: declared.compatibilityDate,
    compatibilityFlags: declared.compatibilityFlags,
    bindings: { ...declared.vars, ...vars, ENVIRONMENT: "local" },
    d1Databases: Object.fromEntries(declared.d1Databases.map((b) => [b, `bench-${b}`])),
    r2Buckets: declared.r2Buckets,
    durableObjects: declared.durableObjects,
    queueProducers: declared.queueProducers,
    queueConsumers: declared.queueConsumers,
  };
  const shared = {
    d1Persist: persist,
    durableObjectsPersist: persist,
    r2Persist: persist,
    host: "127.0.0.1",
    port: 0,
    ...(process.env.BENCH_DEBUG ? { log: new Log(LogLevel.DEBUG) } : {}),
  };
  const heap = heapWorker
    ? {
        ...worker,
        name: "engine-heap",
        queueConsumers: {},
        durableObjects: Object.fromEntries(
          Object.entries(declared.durableObjects).map(([binding, o]) => {
            const className = typeof o === "string" ? o : o.className;
            return [binding, className === "EngineShard" ? { className, useSQLite: true } : { className, scriptName: "main" }];
          }),
        ),
      }
    : null;
  const remote = d1Process
    ? await startD1Process({
        persist,
        binding: "DB",
        databaseId: worker.d1Databases.DB,
        compatibilityDate: declared.compatibilityDate,
      })
    : null;
  // D1 apart: the Worker's DB (in both workers) is the wrapped binding instead of a local database
  for (const w of remote ? [worker, heap].filter(Boolean) : []) {
    w.d1Databases = Object.fromEntries(Object.entries(w.d1Databases).filter(([binding]) => binding !== "DB"));
    w.wrappedBindings = remote.wrappedBindings;
  }
  const workers = [worker, ...(heap ? [heap] : []), ...(remote ? [remote.shimWorker] : [])];
  const mf = new Miniflare(workers.length > 1 ? { ...shared, inspectorPort, workers } : { ...shared, ...worker });
  const url = await mf.ready;
  const db = sturdy(remote ? remote.db : await mf.getD1Database("DB"));
  const migrations = readdirSync(path.join(root, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const f of migrations) {
    const sql = readFileSync(path.join(root, "migrations", f), "utf8").split("--> statement-breakpoint");
    await db.batch(
      sql
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => db.prepare(s)),
    );
  }
  const seed = await buildSeedStatements();
  await db.batch(seed.map((s) => db.prepare(s)));
  // warm the market room (history is generated once); `warm: false` leaves it asleep
  if (warm) await (await mf.dispatchFetch(`${url.origin}/v2/api/forex/trade_list`)).text();
  const dispose = async () => {
    await mf.dispose();
    await remote?.dispose();
    rmSync(persist, { recursive: true, force: true });
  };
  return { mf, origin: url.origin, db, ws: `${url.origin.replace("http", "ws")}/v2/ws`, dispose, persist };
}

/** The socket error miniflare's calls into workerd meet after the rooms held its thread for long. */
const dropped = (error) => /other side closed/.test(String(error?.cause?.message ?? error?.message ?? error));

/**
 * The bench's D1 binding with a retry where workerd dropped the call's socket. The first call into
 * workerd after a long request (a room loading 1,000,000 orders, copying to 100,000 followers)
 * can find its connection closed ("other side closed": a statement's prepare or bind is a
 * synchronous call, so the error ended the bench). Preparing, binding and reads are asked again
 * (up to 5 times); writes are not (the retry of a write that did reach D1 would write twice).
 */
function sturdy(db) {
  const real = new WeakMap();
  const TRIES = 5;
  const again = (what, call) => {
    for (let tried = 1; ; tried++) {
      try {
        return call();
      } catch (error) {
        if (!dropped(error) || tried >= TRIES) throw error;
        console.warn(`  (${what}: workerd dropped the call; asked again)`);
      }
    }
  };
  const againAsync = async (what, call) => {
    for (let tried = 1; ; tried++) {
      try {
        return await call();
      } catch (error) {
        if (!dropped(error) || tried >= TRIES) throw error;
        console.warn(`  (${what}: workerd dropped the call; asked again)`);
        await new Promise((r) => setTimeout(r, 50 * tried));
      }
    }
  };
  const statement = (stmt) => {
    const wrapped = {
      bind: (...values) => statement(again("bind", () => stmt.bind(...values))),
      first: (...a) => againAsync("read", () => stmt.first(...a)),
      all: () => againAsync("read", () => stmt.all()),
      raw: (...a) => againAsync("read", () => stmt.raw(...a)),
      run: () => stmt.run(),
    };
    real.set(wrapped, stmt);
    return wrapped;
  };
  return {
    prepare: (sql) => statement(again("prepare", () => db.prepare(sql))),
    batch: (list) => db.batch(list.map((s) => real.get(s) ?? s)),
    exec: (sql) => db.exec(sql),
  };
}

/** A local control of the Worker (/dev/...), answered as JSON. */
export async function dev(worker, pathAndQuery, body) {
  const res = await worker.mf.dispatchFetch(
    `${worker.origin}${pathAndQuery}`,
    body === undefined
      ? { method: "GET" }
      : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
  );
  const text = await res.text();
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

export const holdPrice = (worker, code, price) => dev(worker, "/dev/market/price", { code, price });

/** The main market room's stub, for its RPC (tickNow, ping, engineView …). */
export async function marketRoom(worker) {
  const ns = await worker.mf.getDurableObjectNamespace("MARKET_ROOM");
  return ns.get(ns.idFromName("main"));
}

/**
 * `n` registered users (uid `<tag>-<k>`) with the three accounts a sign-up creates and, when
 * `sessions`, a live session each (the token is returned: sessions store its SHA-256). Written in
 * bulk; answers [{ id, token, contract, options, funding }] in k order.
 */
export async function bulkUsers(db, tag, n, { sessions = false } = {}) {
  const step = 5_000;
  for (let from = 0; from < n; from += step) {
    await db
      .prepare(
        `WITH RECURSIVE c(k) AS (SELECT ?1 UNION ALL SELECT k + 1 FROM c WHERE k + 1 < ?2)
         INSERT INTO users (uid, company_id, email, password_hash, invite_code, is_demo, lang)
         SELECT ?3 || '-' || k, 1, ?3 || '-' || k || '@example.com', 'bench', upper(?3) || 'X' || k, 0, 'en' FROM c`,
      )
      .bind(from, Math.min(n, from + step), tag)
      .run();
  }
  const range = await db.prepare("SELECT MIN(id) AS lo, MAX(id) AS hi FROM users WHERE uid LIKE ?1 || '-%'").bind(tag).first();
  for (const [kind, type] of [
    ["funding", 1],
    ["options", 2],
    ["contract", 3],
  ]) {
    await db
      .prepare("INSERT INTO accounts (user_id, kind, account_type_id) SELECT id, ?3, ?4 FROM users WHERE id BETWEEN ?1 AND ?2")
      .bind(range.lo, range.hi, kind, type)
      .run();
  }
  const { results } = await db
    .prepare(
      `SELECT u.id, CAST(substr(u.uid, length(?3) + 2) AS INTEGER) AS k,
              MAX(CASE WHEN a.kind = 'contract' THEN a.id END) AS contract, MAX(CASE WHEN a.kind = 'options' THEN a.id END) AS options,
              MAX(CASE WHEN a.kind = 'funding' THEN a.id END) AS funding
         FROM users u JOIN accounts a ON a.user_id = u.id WHERE u.id BETWEEN ?1 AND ?2 GROUP BY u.id ORDER BY k`,
    )
    .bind(range.lo, range.hi, tag)
    .all();
  const users = results.map((r) => ({ id: r.id, contract: r.contract, options: r.options, funding: r.funding }));
  if (sessions) {
    const expires = Date.now() + 7 * 86_400_000;
    for (const u of users) u.token = randomBytes(24).toString("base64url");
    for (let i = 0; i < users.length; i += 400) {
      const part = users.slice(i, i + 400);
      await db
        .prepare(
          `INSERT INTO sessions (id, user_id, expires_at) VALUES ${part.map((u) => `('${createHash("sha256").update(u.token).digest("hex")}', ${u.id}, ${expires})`).join(",")}`,
        )
        .run();
    }
  }
  return users;
}

let postings = 0;
/**
 * One balanced ledger transaction written set-based: the entries `entriesSql` selects
 * (account_id, bucket, amount; bound with `binds`), the other side on external:deposits, and every
 * balance moved by exactly its entries (as ledger/post.server's post does). For bench fixtures only:
 * money that users hold before the measured paths run.
 */
export async function postEntries(db, entriesSql, binds = []) {
  const key = `bench-fixture-${process.pid}-${postings++}`;
  const n = binds.length;
  // the transaction's integer id is found by its key, as the services' batches do (txOfKey)
  const tx = (param) => `(SELECT id FROM ledger_transactions WHERE idempotency_key = ${param})`;
  await db.batch([
    db
      .prepare("INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, memo) VALUES (?1, 'bench', 'adjustment', '')")
      .bind(key),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) SELECT ${tx(`?${n + 1}`)}, e.* FROM (${entriesSql}) e`,
      )
      .bind(...binds, key),
    db
      .prepare(
        `INSERT INTO ledger_entries (transaction_id, account_id, bucket, amount) SELECT ${tx("?1")}, 6, 0, -SUM(amount) FROM ledger_entries WHERE transaction_id = ${tx("?1")}`,
      )
      .bind(key),
    db
      .prepare(
        `UPDATE accounts SET balance = accounts.balance + d.available, lock_balance = accounts.lock_balance + d.locked
           FROM (SELECT account_id, SUM(CASE WHEN bucket = 0 THEN amount ELSE 0 END) AS available, SUM(CASE WHEN bucket = 1 THEN amount ELSE 0 END) AS locked
                   FROM ledger_entries WHERE transaction_id = ${tx("?1")} GROUP BY account_id) AS d
          WHERE accounts.id = d.account_id`,
      )
      .bind(key),
  ]);
}

/** Credits every `kind` account of users with ids lo..hi with `amount` micros (available). */
export const creditUsers = (db, lo, hi, kind, amount) =>
  postEntries(db, "SELECT id, 0, ?4 FROM accounts WHERE user_id BETWEEN ?1 AND ?2 AND kind = ?3", [lo, hi, kind, amount]);

/** Polls `check` (an async boolean) every `every` ms until it holds or `timeoutMs` passes: answers the time it held (performance.now) or NaN. */
export async function until(check, { every = 20, timeoutMs = 120_000 } = {}) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      if (await check()) return performance.now();
    } catch (error) {
      // a poll that workerd dropped (its socket closed while the rooms held the thread): asked again
      console.warn(`  (poll failed: ${error.cause?.message ?? error.message}; asked again)`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
  return NaN;
}
