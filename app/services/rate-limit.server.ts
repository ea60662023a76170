/**
 * Durable throttles in D1. Every function here reserves its slot with ONE statement
 * (`INSERT … ON CONFLICT … DO UPDATE … RETURNING`), before the work it guards: a burst of
 * parallel requests gets distinct counts, so no more than the limit ever pass, however parallel.
 * (Reading a count first and counting later lets a whole burst through.)
 */
export interface Limit {
  /** Fixed window length in milliseconds. */
  windowMs: number;
  max: number;
}

/**
 * A window whose slots grow more expensive: the first `free` attempts in a window pass at once,
 * then each one makes the next wait `baseDelayMs`, doubling up to `maxDelayMs`. Only the key
 * that earned the delay waits (a client, never the owner of an account).
 */
export interface Backoff {
  windowMs: number;
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const Limits = {
  /** Sign-in attempts per account: past `captchaAfter`, each attempt needs a picture captcha. */
  loginPerAccount: { windowMs: 60 * 60_000, max: 3 },
  /** Codes issued to one address (register, reset, password change): refusals never count here. */
  codePerTarget: { windowMs: 60 * 60_000, max: 5 },
  /** Code requests per client, refused ones included (only the client that sent them is limited). */
  codePerClient: { windowMs: 60 * 60_000, max: 60 },
  /**
   * The operator's step-up codes: a step-up lasts 15 minutes, so a working hour needs at least 4,
   * and a lost or mistyped code needs another; its own, larger allowance (per operator address,
   * and per operator for their requests, refused ones included).
   */
  stepUpPerTarget: { windowMs: 60 * 60_000, max: 20 },
  stepUpPerOperator: { windowMs: 60 * 60_000, max: 120 },
  registerPerClient: { windowMs: 60 * 60_000, max: 60 },
  demoPerClient: { windowMs: 60 * 60_000, max: 30 },
  captchaPerClient: { windowMs: 10 * 60_000, max: 60 },
  /** Current-password checks of a signed-in user changing their password (/mine/password). */
  oldPasswordPerUser: { windowMs: 60 * 60_000, max: 10 },
  /** Web3 login: nonces asked for and signed logins tried, per client. */
  web3NoncePerClient: { windowMs: 10 * 60_000, max: 30 },
  web3LoginPerClient: { windowMs: 10 * 60_000, max: 30 },
  /** Messages sent through /feedback per user. */
  feedbackPerUser: { windowMs: 60 * 60_000, max: 5 },
} satisfies Record<string, Limit>;

export const Backoffs = {
  /** Sign-in attempts per client: 10 an hour at once, then 1 s, 2 s, 4 s … up to 5 minutes apart. */
  loginPerClient: { windowMs: 60 * 60_000, free: 10, baseDelayMs: 1_000, maxDelayMs: 5 * 60_000 },
} satisfies Record<string, Backoff>;

function windowStart(now: number, windowMs: number) {
  return Math.floor(now / windowMs) * windowMs;
}

/**
 * The sliding-window count, as SQL for an `ON CONFLICT DO UPDATE` on a rate_limits row (SQLite
 * evaluates every SET expression against the row as it was). Parameters: ?2 the current window's
 * start, ?W the window length, ?R how much of the last window length lies in the previous window
 * (`windowMs − (now − start)`).
 *   - current: the current window's count after this slot;
 *   - previous: the previous window's count (0 when the row's window is older than that);
 *   - count: current + previous weighted by ?R / ?W, rounded up. A burst split across a window
 *     boundary therefore counts as one burst: the limit holds over any `windowMs`.
 */
function slidingCount(w: string, r: string) {
  const current = "(CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END)";
  const previous = `(CASE WHEN window_start = ?2 THEN prev_count WHEN window_start = ?2 - ${w} THEN count ELSE 0 END)`;
  // CAST: D1 may bind JS numbers as REAL, and the rounding up needs an integer division.
  const weighted = (cur: string, prev: string) => `(${cur} + CAST((${prev} * ${r} + ${w} - 1) / ${w} AS INTEGER))`;
  /** `count` before the update; `stored` the same figure read back from the updated row (RETURNING). */
  return { current, previous, count: weighted(current, previous), stored: weighted("count", "prev_count") };
}

/** Reserves one slot and returns the client's count over the last `windowMs` (1 = first; see slidingCount). */
export async function reserve(db: D1Database, key: string, limit: Pick<Limit, "windowMs">, now = Date.now()): Promise<number> {
  const start = windowStart(now, limit.windowMs);
  const sliding = slidingCount("?3", "?4");
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count, prev_count) VALUES (?1, ?2, 1, 0)
       ON CONFLICT(key) DO UPDATE SET
         prev_count = ${sliding.previous},
         count = ${sliding.current},
         window_start = ?2
       RETURNING ${sliding.stored} AS n`,
    )
    .bind(key, start, limit.windowMs, limit.windowMs - (now - start))
    .first<{ n: number }>();
  return row?.n ?? 1;
}

/** Reserves one slot and says whether it is within the limit over the last `windowMs`. */
export async function hit(db: D1Database, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  return (await reserve(db, key, limit, now)) <= limit.max;
}

export type BackoffResult = { ok: true; count: number } | { ok: false; waitSeconds: number };

/**
 * Reserves one slot of a growing-delay throttle. Refused (nothing counted) while the key waits;
 * otherwise the slot is taken and the key's next slot is delayed by the rule of `Backoff`. The
 * count is the sliding-window count of `reserve`.
 */
export async function reserveWithBackoff(db: D1Database, key: string, rule: Backoff, now = Date.now()): Promise<BackoffResult> {
  const start = windowStart(now, rule.windowMs);
  // n: the sliding count this slot gets. Its delay: 0 while n <= free, else base * 2^(n - free - 1), capped.
  const { current, previous, count: n } = slidingCount("?7", "?8");
  const delay = (count: string) => `(CASE WHEN ${count} <= ?4 THEN 0 ELSE min(?6, ?5 * (1 << min(30, ${count} - ?4 - 1))) END)`;
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count, prev_count, blocked_until) VALUES (?1, ?2, 1, 0, ?3 + ${delay("1")})
       ON CONFLICT(key) DO UPDATE SET
         blocked_until = ?3 + ${delay(n)},
         prev_count = ${previous},
         count = ${current},
         window_start = ?2
       WHERE blocked_until <= ?3
       RETURNING count`,
    )
    .bind(key, start, now, rule.free, rule.baseDelayMs, rule.maxDelayMs, rule.windowMs, rule.windowMs - (now - start))
    .first<{ count: number }>();
  if (row) return { ok: true, count: row.count };
  const waiting = await db.prepare("SELECT blocked_until AS until FROM rate_limits WHERE key = ?1").bind(key).first<{ until: number }>();
  return { ok: false, waitSeconds: Math.max(1, Math.ceil(((waiting?.until ?? now) - now) / 1000)) };
}

/**
 * Reserves a slot that opens again only after `intervalMs` (e.g. one code per 60 s). Returns 0
 * when reserved, else the seconds left.
 */
export async function reserveInterval(db: D1Database, key: string, intervalMs: number, now = Date.now()): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count, blocked_until) VALUES (?1, ?2, 1, ?2 + ?3)
       ON CONFLICT(key) DO UPDATE SET count = count + 1, window_start = ?2, blocked_until = ?2 + ?3
       WHERE blocked_until <= ?2
       RETURNING count`,
    )
    .bind(key, now, intervalMs)
    .first<{ count: number }>();
  if (row) return 0;
  const waiting = await db.prepare("SELECT blocked_until AS until FROM rate_limits WHERE key = ?1").bind(key).first<{ until: number }>();
  return Math.max(1, Math.ceil(((waiting?.until ?? now) - now) / 1000));
}

export type SpacedResult = { ok: true } | { ok: false; reason: "wait"; seconds: number } | { ok: false; reason: "limited" };

/**
 * Reserves one slot of a limit whose slots are also spaced `intervalMs` apart (a code to an
 * address: one a minute, so many an hour), in ONE statement: the slot is taken only when the
 * interval has passed AND the sliding count (see slidingCount) stays within `limit.max`. A
 * refusal takes nothing, so refused requests can neither fill the window nor re-arm the
 * interval; a parallel burst still gets at most one slot per interval.
 */
export async function reserveSpaced(
  db: D1Database,
  key: string,
  limit: Limit,
  intervalMs: number,
  now = Date.now(),
): Promise<SpacedResult> {
  const start = windowStart(now, limit.windowMs);
  const { current, previous, count } = slidingCount("?3", "?4");
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count, prev_count, blocked_until) VALUES (?1, ?2, 1, 0, ?5 + ?6)
       ON CONFLICT(key) DO UPDATE SET
         prev_count = ${previous},
         count = ${current},
         window_start = ?2,
         blocked_until = ?5 + ?6
       WHERE blocked_until <= ?5 AND ${count} <= ?7
       RETURNING count`,
    )
    .bind(key, start, limit.windowMs, limit.windowMs - (now - start), now, intervalMs, limit.max)
    .first<{ count: number }>();
  if (row) return { ok: true };
  const waiting = await db.prepare("SELECT blocked_until AS until FROM rate_limits WHERE key = ?1").bind(key).first<{ until: number }>();
  const wait = (waiting?.until ?? 0) - now;
  return wait > 0 ? { ok: false, reason: "wait", seconds: Math.max(1, Math.ceil(wait / 1000)) } : { ok: false, reason: "limited" };
}

/** Gives back a slot of reserveSpaced (the work it guarded did not happen): its count and its interval. */
export async function releaseSpaced(db: D1Database, key: string, now = Date.now()) {
  await db
    .prepare("UPDATE rate_limits SET count = max(count - 1, 0), blocked_until = min(blocked_until, ?2) WHERE key = ?1")
    .bind(key, now)
    .run();
}

/** Gives back one slot (a successful sign-in does not count against its client). */
export async function release(db: D1Database, key: string) {
  await db.prepare("UPDATE rate_limits SET count = max(count - 1, 0) WHERE key = ?1").bind(key).run();
}

export async function clear(db: D1Database, key: string) {
  await db.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(key).run();
}

/** Old windows are useless: dropped by the scheduled job. */
export async function pruneRateLimits(db: D1Database, now = Date.now()) {
  const day = 24 * 60 * 60_000;
  const result = await db
    .prepare("DELETE FROM rate_limits WHERE window_start < ?1 AND blocked_until < ?2")
    .bind(now - day, now)
    .run();
  return result.meta.changes ?? 0;
}
