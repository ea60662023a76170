/**
 * Daily and bulk jobs on Cloudflare Queues (docs/decisions/018-scale.md): the cron's producer
 * splits a job into chunks by user id range (a user's day is settled in one place) and enqueues
 * one message per chunk; the queue's consumer settles each chunk in one batch. Delivery is at
 * least once, so every chunk is idempotent per (item, day). Pure: the messages and their checks.
 */
import { isDay } from "./fund";

/** Subscriptions per fund-income chunk: one batch of this many settles in well under a second. */
export const FUND_INCOME_CHUNK = 5_000;
/** Late loans per loan-penalty chunk (a user has at most one open loan, so as many users). */
export const LOAN_PENALTY_CHUNK = 5_000;
/** Cloudflare Queues: at most 100 messages per sendBatch. */
export const SEND_BATCH_MAX = 100;

/** Users with from <= id < to (to null: no upper end). */
export type UserRange = { from: number; to: number | null };

/** Fund income for the users with from <= id < to (to null: no upper end), as of `day`. */
export interface FundIncomeChunk extends UserRange {
  job: "fund-income";
  day: string;
  /** The run's instant (ms): the income rows' created_at. */
  now: number;
}

/** The loans' late fees for the users with from <= id < to, every late day up to and including `day`. */
export interface LoanPenaltyChunk extends UserRange {
  job: "loan-penalties";
  day: string;
  /** The run's instant (ms): the late-day rows' created_at. */
  now: number;
}

export type JobMessage = FundIncomeChunk | LoanPenaltyChunk;
export const JOB_KINDS = ["fund-income", "loan-penalties"] as const satisfies readonly JobMessage["job"][];

/** Whether a queue message body is a job this Worker knows (anything else goes to the dead letters). */
export function isJobMessage(body: unknown): body is JobMessage {
  if (typeof body !== "object" || body === null) return false;
  const m = body as Record<string, unknown>;
  return (
    (JOB_KINDS as readonly unknown[]).includes(m.job) &&
    typeof m.day === "string" &&
    isDay(m.day) &&
    Number.isSafeInteger(m.now) &&
    Number.isSafeInteger(m.from) &&
    (m.from as number) >= 0 &&
    (m.to === null || (Number.isSafeInteger(m.to) && (m.to as number) > (m.from as number)))
  );
}

/**
 * User id ranges from the first user id of each chunk (ascending, as the database answers them):
 * [0, b1), [b1, b2), …, [bn, ∞). Every user falls in exactly one range.
 */
export function userRanges(starts: number[]): UserRange[] {
  const bounds = [...new Set(starts.filter((s) => s > 0))].sort((a, b) => a - b);
  const ranges: UserRange[] = [];
  let from = 0;
  for (const b of bounds) {
    ranges.push({ from, to: b });
    from = b;
  }
  ranges.push({ from, to: null });
  return ranges;
}

/**
 * The query answering the first user id of every chunk after the first, for `userRanges`: over the
 * job's items (`items`: a SELECT whose first column is the item's user_id), in user id order,
 * every `?1`-th item starts a chunk. One query, whatever the number of items; the items of one
 * user are never split, since a chunk starts at a user id and runs to the next start.
 */
export function chunkStartsSql(items: string): string {
  return `SELECT user_id AS id FROM (SELECT user_id, ROW_NUMBER() OVER (ORDER BY user_id) AS n FROM (${items})) WHERE n % ?1 = 1 AND n > 1`;
}
