/**
 * Scheduled jobs (the Worker's cron handler). Each cron expression of wrangler.toml runs a list
 * of jobs; every job is idempotent (cron delivery is at least once) and driven by rows in D1.
 * Locally: `npm start` runs wrangler with --test-scheduled, so
 *   curl "http://localhost:8787/__scheduled?cron=0+3+*+*+*"
 * runs the daily jobs (see README).
 *
 * Jobs that grow with the users (the funds' daily income, the loans' late fees) do not run in the cron's invocation:
 * the cron is their producer, enqueueing one message per chunk of users on the JOBS queue
 * (wrangler.toml), and `consumeJobs` (the Worker's queue handler) settles each chunk in one batch.
 * Messages are delivered at least once and each chunk is idempotent per (item, day); a message
 * that keeps failing goes to the dead-letter queue, whose consumer records it in job_dead_letters
 * for operators (/admin/engine).
 */
import { createServiceContext, type ServiceContext } from "~/context.server";
import { MARKET_ROOM } from "~/domain/rooms";
import { pruneCodes } from "~/services/codes.server";
import { SEND_BATCH_MAX, isJobMessage, type JobMessage, type UserRange } from "~/domain/jobs";
import { fundIncomeRanges, payFundIncomeChunk } from "~/services/fund/income.server";
import { utcDay } from "~/domain/fund";
import { expireDemoAccounts } from "~/services/demo.server";
import { accrueLoanPenaltiesChunk, loanPenaltyRanges } from "~/services/loan/penalties.server";
import { pruneRateLimits } from "~/services/rate-limit.server";
import { pruneSessions } from "~/services/session.server";
import { pruneWeb3Nonces } from "~/services/web3.server";
import { pruneUpstreamCache } from "~/services/upstream/cache.server";

export const DAILY = "0 3 * * *";
export const EVERY_FIVE_MINUTES = "*/5 * * * *";

type Job = (ctx: ServiceContext, now: number) => Promise<number | string>;

export const JOBS: Record<string, Record<string, Job>> = {
  [DAILY]: {
    "demo-expiry": (ctx, now) => expireDemoAccounts(ctx, now),
    "prune-sessions": (ctx, now) => pruneSessions(ctx.d1, now),
    "prune-codes": (ctx, now) => pruneCodes(ctx.d1, now),
    "prune-rate-limits": (ctx, now) => pruneRateLimits(ctx.d1, now),
    "loan-penalties": (ctx, now) => enqueueChunks(ctx, "loan-penalties", now, loanPenaltyRanges),
    "fund-income": (ctx, now) => enqueueChunks(ctx, "fund-income", now, fundIncomeRanges),
    "prune-web3-nonces": (ctx, now) => pruneWeb3Nonces(ctx.d1, now),
    "prune-upstream-cache": (ctx, now) => pruneUpstreamCache(ctx.d1, now),
  },
  [EVERY_FIVE_MINUTES]: {
    // Belt and braces for the engine's clock: the market room re-arms its alarm when work waits.
    "market-clock": async (ctx) => String(await ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM)).wake()),
  },
};

/** Runs the jobs of one cron expression; a failing job is logged and does not stop the others. */
/** The jobs of this Worker's own tables, which run in upstream mode too. */
const UPSTREAM_JOBS = new Set(["prune-sessions", "prune-rate-limits", "prune-upstream-cache", "market-clock"]);

export async function runScheduledJobs(env: Env, cron: string, scheduledTime = Date.now()): Promise<Record<string, number | string>> {
  const jobs = JOBS[cron];
  if (!jobs) {
    console.warn(`no jobs for cron "${cron}"`);
    return {};
  }
  const ctx = await createServiceContext(env);
  const report: Record<string, number | string> = {};
  for (const [name, job] of Object.entries(jobs)) {
    // upstream mode (ADR 024): the backend keeps users and money and runs their jobs; this Worker
    // only tidies its own sessions and limits and keeps the market room's clock
    if (ctx.config.platform.kind === "upstream" && !UPSTREAM_JOBS.has(name)) {
      report[name] = "skipped: the backend runs it";
      continue;
    }
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

/** The producer of a queued daily job: one message per chunk of users, as of the run's day. */
async function enqueueChunks(
  ctx: ServiceContext,
  job: JobMessage["job"],
  now: number,
  ranges: (ctx: ServiceContext) => Promise<UserRange[]>,
): Promise<string> {
  const day = utcDay(now);
  const messages: JobMessage[] = (await ranges(ctx)).map((r) => ({ job, day, now, from: r.from, to: r.to }));
  await enqueue(ctx, messages);
  return `${day}: ${messages.length} chunks queued`;
}

/** Sends job messages to the JOBS queue (at most SEND_BATCH_MAX per call). */
async function enqueue(ctx: ServiceContext, messages: JobMessage[]) {
  for (let i = 0; i < messages.length; i += SEND_BATCH_MAX) {
    await ctx.env.JOBS.sendBatch(messages.slice(i, i + SEND_BATCH_MAX).map((body) => ({ body, contentType: "json" as const })));
  }
}

/** The last chunks this isolate ran (local /dev/jobs and the benchmark): what, how many paid, how long. */
export interface JobChunkTiming {
  job: string;
  day: string;
  from: number;
  to: number | null;
  paid: number;
  ms: number;
  at: number;
}
const chunkTimings: JobChunkTiming[] = [];
export const recentJobChunks = (): JobChunkTiming[] => [...chunkTimings];

/** Runs one job message (a chunk); throws when it must be retried. */
export async function runJob(ctx: ServiceContext, message: JobMessage): Promise<string> {
  const users = { from: message.from, to: message.to };
  const chunk = `${message.job} ${message.day} [${message.from}, ${message.to ?? "∞"})`;
  const started = Date.now();
  let paid: number;
  let report: string;
  switch (message.job) {
    case "fund-income": {
      const r = await payFundIncomeChunk(ctx, message.now, message.day, users);
      paid = r.paid;
      report = `${r.paid} paid, ${r.finished} finished`;
      break;
    }
    case "loan-penalties":
      paid = await accrueLoanPenaltiesChunk(ctx, message.now, message.day, users);
      report = `${paid} late days charged`;
      break;
  }
  const ms = Date.now() - started;
  chunkTimings.push({ job: message.job, day: message.day, from: message.from, to: message.to, paid, ms, at: started });
  if (chunkTimings.length > 1_000) chunkTimings.shift();
  return `${chunk}: ${report}, ${ms} ms`;
}

/** Queue names (wrangler.toml): the jobs, and where messages go after their retries. */
export const JOBS_QUEUE = "bourse-jobs";
export const JOBS_DEAD_LETTERS = "bourse-jobs-dlq";

/**
 * The Worker's queue handler. On the jobs queue each message is one chunk: acknowledged when its
 * batch committed, retried (with a growing delay) when it failed; a body this Worker does not know
 * is dead at once. On the dead-letter queue each message is recorded in D1 for operators.
 */
export async function consumeJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const ctx = await createServiceContext(env);
  for (const message of batch.messages) {
    if (batch.queue === JOBS_DEAD_LETTERS) {
      await recordDeadLetter(ctx, batch.queue, message, "retries exhausted");
      message.ack();
      continue;
    }
    if (!isJobMessage(message.body)) {
      console.error("unknown job message", message.id);
      await recordDeadLetter(ctx, batch.queue, message, "unknown message");
      message.ack();
      continue;
    }
    try {
      console.log(await runJob(ctx, message.body));
      message.ack();
    } catch (error) {
      console.error("job failed; retried", message.id, message.attempts, error);
      message.retry({ delaySeconds: Math.min(300, 5 * 2 ** Math.min(6, message.attempts)) });
    }
  }
}

async function recordDeadLetter(ctx: ServiceContext, queue: string, message: Message<unknown>, reason: string) {
  await ctx.d1
    .prepare(
      "INSERT INTO job_dead_letters (message_id, queue, body, attempts, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (message_id) DO NOTHING",
    )
    .bind(message.id, queue, JSON.stringify(message.body ?? null).slice(0, 10_000), message.attempts, reason, Date.now())
    .run();
}
