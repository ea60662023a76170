/**
 * Scheduled jobs (the Worker's cron handler). Each cron expression of wrangler.toml runs a list
 * of jobs; every job is idempotent (cron delivery is at least once) and driven by rows in D1.
 * Locally: `npm start` runs wrangler with --test-scheduled, so
 *   curl "http://localhost:8787/__scheduled?cron=0+3+*+*+*"
 * runs the daily jobs (see README).
 */
import { createServiceContext, type ServiceContext } from "~/context.server";
import { MARKET_ROOM } from "~/domain/rooms";
import { pruneCodes } from "~/services/codes.server";
import { payFundIncome } from "~/services/fund.server";
import { expireDemoAccounts } from "~/services/demo.server";
import { accrueLoanPenalties } from "~/services/loan.server";
import { pruneRateLimits } from "~/services/rate-limit.server";
import { pruneSessions } from "~/services/session.server";

export const DAILY = "0 3 * * *";
export const EVERY_FIVE_MINUTES = "*/5 * * * *";

type Job = (ctx: ServiceContext, now: number) => Promise<number | string>;

export const JOBS: Record<string, Record<string, Job>> = {
  [DAILY]: {
    "demo-expiry": (ctx, now) => expireDemoAccounts(ctx, now),
    "prune-sessions": (ctx, now) => pruneSessions(ctx.d1, now),
    "prune-codes": (ctx, now) => pruneCodes(ctx.d1, now),
    "prune-rate-limits": (ctx, now) => pruneRateLimits(ctx.d1, now),
    "loan-penalties": (ctx, now) => accrueLoanPenalties(ctx, now),
    "fund-income": async (ctx, now) => {
      const r = await payFundIncome(ctx, now);
      return `${r.day}: ${r.paid} paid, ${r.finished} finished`;
    },
  },
  [EVERY_FIVE_MINUTES]: {
    // Belt and braces for the engine's clock: the market room re-arms its alarm when work waits.
    "market-clock": async (ctx) => String(await ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM)).wake()),
  },
};

/** Runs the jobs of one cron expression; a failing job is logged and does not stop the others. */
export async function runScheduledJobs(env: Env, cron: string, scheduledTime = Date.now()): Promise<Record<string, number | string>> {
  const jobs = JOBS[cron];
  if (!jobs) {
    console.warn(`no jobs for cron "${cron}"`);
    return {};
  }
  const ctx = await createServiceContext(env);
  const report: Record<string, number | string> = {};
  for (const [name, job] of Object.entries(jobs)) {
    try {
      report[name] = await job(ctx, scheduledTime);
    } catch (error) {
      console.error(`scheduled job ${name} failed`, error);
      report[name] = "failed";
    }
  }
  console.log(`scheduled ${cron}: ${JSON.stringify(report)}`);
  return report;
}
