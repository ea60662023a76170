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
  codePerTarget: { windowMs: 60 * 60_000, max: 5 },
  codePerClient: { windowMs: 60 * 60_000, max: 60 },
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
 * Reserves one slot and returns the client's count over the last `windowMs` (1 = first), as a
 * sliding window: the slots of the current fixed window plus the previous window's slots
 * weighted by how much of it still lies within `windowMs` of now (rounded up). A burst split
 * across a window boundary therefore counts as one burst: the limit holds over any `windowMs`,
 * not only over each fixed window.
 */
export async function reserve(db: D1Database, key: string, limit: Pick<Limit, "windowMs">, now = Date.now()): Promise<number> {
  const start = windowStart(now, limit.windowMs);
  // SQLite evaluates every SET expression against the row as it was, so prev_count sees the old
  // window_start and count.
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count, prev_count) VALUES (?1, ?2, 1, 0)
       ON CONFLICT(key) DO UPDATE SET
         prev_count = CASE WHEN window_start = ?2 THEN prev_count WHEN window_start = ?2 - ?3 THEN count ELSE 0 END,
         count = CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END,
         window_start = ?2
       RETURNING count, prev_count AS previous`,
    )
    .bind(key, start, limit.windowMs)
    .first<{ count: number; previous: number }>();
  if (!row) return 1;
  const remaining = limit.windowMs - (now - start);
  return row.count + Math.ceil((row.previous * remaining) / limit.windowMs);
}

/** Reserves one slot and says whether it is within the limit over the last `windowMs`. */
export async function hit(db: D1Database, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  return (await reserve(db, key, limit, now)) <= limit.max;
}

export type BackoffResult = { ok: true; count: number } | { ok: false; waitSeconds: number };

/**
 * Reserves one slot of a growing-delay throttle. Refused (nothing counted) while the key waits;
 * otherwise the slot is taken and the key's next slot is delayed by the rule of `Backoff`. The
 * count is the sliding-window count of `reserve` (a burst straddling a boundary is one burst).
 */
export async function reserveWithBackoff(db: D1Database, key: string, rule: Backoff, now = Date.now()): Promise<BackoffResult> {
  const start = windowStart(now, rule.windowMs);
  const remaining = rule.windowMs - (now - start);
  // The current window's count after this slot, and the previous window's count before it.
  const current = "(CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END)";
  const previous = "(CASE WHEN window_start = ?2 THEN prev_count WHEN window_start = ?2 - ?7 THEN count ELSE 0 END)";
  // n: the sliding count this slot gets (the previous window weighted by its part still inside
  // the last windowMs, rounded up). Its delay: 0 while n <= free, else base * 2^(n - free - 1), capped.
  const n = `(${current} + (${previous} * ?8 + ?7 - 1) / ?7)`;
  const delay = (count: string) =>
    `(CASE WHEN ${count} <= ?4 THEN 0 ELSE min(?6, ?5 * (1 << min(30, ${count} - ?4 - 1))) END)`;
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
    .bind(key, start, now, rule.free, rule.baseDelayMs, rule.maxDelayMs, rule.windowMs, remaining)
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
  const result = await db.prepare("DELETE FROM rate_limits WHERE window_start < ?1 AND blocked_until < ?2").bind(now - day, now).run();
  return result.meta.changes ?? 0;
}

/**
 * The client a request comes from, as Cloudflare reports it (CF-Connecting-IP cannot be set by
 * the client). IPv6 addresses are keyed by their /64 network, which one subscriber holds whole.
 * Local runs without the header share one key.
 */
export function clientKeyOf(request: Request): string {
  const ip = request.headers.get("cf-connecting-ip")?.trim();
  if (!ip) return "local";
  if (ip.includes(":")) return `${ipv6Network(ip)}::/64`;
  return ip.slice(0, 45);
}

/** The first four hextets of an IPv6 address ("2001:db8::1" → "2001:db8:0:0"). */
function ipv6Network(ip: string): string {
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const missing = Math.max(0, 8 - left.length - right.length);
  const full = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  return full.slice(0, 4).map((h) => h.replace(/^0+(?=.)/, "")).join(":");
}
