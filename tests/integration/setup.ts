// Every integration test file starts from a migrated, seeded database (the same seed as npm start).
import { applyD1Migrations, env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { afterAll } from "vitest";
import type { MarketRoom } from "../../party/market-room";
import { seedStatements } from "~/db/seed";
import { LOCAL_OPERATOR_EMAIL, LOCAL_OPERATOR_PASSWORD, LOCAL_PEPPER } from "~/env.server";
import { hashPassword } from "~/services/password.server";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
const seeded = await env.DB.prepare("SELECT COUNT(*) AS n FROM companies").first<{ n: number }>();
if (!seeded?.n) {
  const hash = await hashPassword(LOCAL_OPERATOR_PASSWORD, LOCAL_PEPPER, 100_000);
  const statements = seedStatements({ operatorEmail: LOCAL_OPERATOR_EMAIL, operatorPasswordHash: hash });
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}

// Tests restart the rooms with abortAllDurableObjects(). Code of an aborted room that was in
// flight then fails with the abort and logs it; in @cloudflare/vitest-pool-workers 0.15 a log from
// an object whose input gate broke waits forever, and vitest waits for it before it ends the file
// (cloudflare/workers-sdk#14180, fixed in 0.18.6, which needs Node 22; ADR 021). Such logs say
// nothing a test needs, so they are dropped here; every other log goes through.
const ABORTED = "abortAllDurableObjects()";
const mentionsAbort = (value: unknown, depth = 0): boolean =>
  depth < 4 &&
  (typeof value === "string"
    ? value.includes(ABORTED)
    : value instanceof Error && (value.message.includes(ABORTED) || mentionsAbort(value.cause, depth + 1)));
const patched = globalThis as { __abortLogsDropped?: boolean };
if (!patched.__abortLogsDropped) {
  patched.__abortLogsDropped = true;
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (!args.some((a) => mentionsAbort(a))) original(...args);
    };
  }
}

// At the end of every file the test pool aborts every Durable Object. A room whose alarm is in
// flight then fails and logs from a broken object, which can stall @cloudflare/vitest-pool-workers
// 0.15's teardown for good (fixed upstream only in releases that need Node 22; ADR 021). So each
// file ends with the rooms still: no alarm armed, no tick running.
afterAll(async () => {
  for (const id of await listDurableObjectIds(env.MARKET_ROOM)) {
    await runInDurableObject(env.MARKET_ROOM.get(id), async (room: MarketRoom) => room.quiesce());
  }
  for (const id of await listDurableObjectIds(env.LIVE_ROOM)) {
    await runInDurableObject(env.LIVE_ROOM.get(id), async (_room, state) => state.storage.deleteAlarm());
  }
});
