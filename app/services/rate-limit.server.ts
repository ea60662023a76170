/**
 * Durable fixed-window counters in D1 (one upsert per hit, no read-then-write race).
 * Used for failed logins (per account and per client) and code requests.
 */
export interface Limit {
  /** Window length in milliseconds. */
  windowMs: number;
  max: number;
}

export const Limits = {
  loginPerAccount: { windowMs: 60 * 60_000, max: 10 },
  loginPerClient: { windowMs: 60 * 60_000, max: 100 },
  codePerTarget: { windowMs: 60 * 60_000, max: 5 },
  codePerClient: { windowMs: 60 * 60_000, max: 60 },
  registerPerClient: { windowMs: 60 * 60_000, max: 60 },
  demoPerClient: { windowMs: 60 * 60_000, max: 60 },
  captchaPerClient: { windowMs: 10 * 60_000, max: 60 },
} satisfies Record<string, Limit>;

function windowStart(now: number, limit: Limit) {
  return Math.floor(now / limit.windowMs) * limit.windowMs;
}

/** Counts one hit and says whether it is within the limit. */
export async function hit(db: D1Database, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  const start = windowStart(now, limit);
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END,
         window_start = ?2
       RETURNING count`,
    )
    .bind(key, start)
    .first<{ count: number }>();
  return (row?.count ?? 1) <= limit.max;
}

/** Whether the key is already over its limit, without counting a hit. */
export async function isLimited(db: D1Database, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  const row = await db
    .prepare("SELECT count FROM rate_limits WHERE key = ?1 AND window_start = ?2")
    .bind(key, windowStart(now, limit))
    .first<{ count: number }>();
  return (row?.count ?? 0) >= limit.max;
}

export async function clear(db: D1Database, key: string) {
  await db.prepare("DELETE FROM rate_limits WHERE key = ?1").bind(key).run();
}

/** The client's address as Cloudflare reports it (falls back to a constant locally). */
export function clientKey(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? "local";
}
