/**
 * Daily and bulk jobs on Cloudflare Queues (docs/decisions/018-scale.md): the cron's producer
 * splits a job into chunks by user id range (a user's day is settled in one place) and enqueues
 * one message per chunk; the queue's consumer settles each chunk in one batch. Delivery is at
 * least once, so every chunk is idempotent per (item, day). Pure: the messages and their checks.
 */
import { isDay } from "./fund";

/** Subscriptions per fund-income chunk: one batch of this many settles in well under a second. */
export const FUND_INCOME_CHUNK = 5_000;
/** Cloudflare Queues: at most 100 messages per sendBatch. */
export const SEND_BATCH_MAX = 100;

/** Fund income for the users with from <= id < to (to null: no upper end), as of `day`. */
export interface FundIncomeChunk {
  job: "fund-income";
  day: string;
  /** The run's instant (ms): the income rows' created_at. */
  now: number;
  from: number;
  to: number | null;
}

export type JobMessage = FundIncomeChunk;

/** Whether a queue message body is a job this Worker knows (anything else goes to the dead letters). */
export function isJobMessage(body: unknown): body is JobMessage {
  if (typeof body !== "object" || body === null) return false;
  const m = body as Record<string, unknown>;
  return (
    m.job === "fund-income" &&
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
export function userRanges(starts: number[]): { from: number; to: number | null }[] {
  const bounds = [...new Set(starts.filter((s) => s > 0))].sort((a, b) => a - b);
  const ranges: { from: number; to: number | null }[] = [];
  let from = 0;
  for (const b of bounds) {
    ranges.push({ from, to: b });
    from = b;
  }
  ranges.push({ from, to: null });
  return ranges;
}
