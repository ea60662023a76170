/**
 * Upstream mode's D1 cache (issue 23, ADR 024): the backend's public reads that change rarely
 * (base settings, company, categories, instruments) kept in `upstream_cache` by call and
 * language, with a freshness rule:
 *   - an entry younger than its call's `freshMs` is served as it is, without asking the backend;
 *   - an older one is asked for again, with a short timeout (the stale copy is the fallback, so a
 *     slow backend costs the page at most that wait) and served marked stale when no good answer
 *     comes;
 *   - with no copy at all, the backend gets the client's full timeout and one retry, and its
 *     failure is the caller's (null).
 * An answer is checked against the call's schema before it is stored: a malformed one is never
 * kept and never replaces a good copy. Each isolate keeps what it read for a few seconds more,
 * so a page's several reads cost D1 at most once each in that time. Money, orders and users are
 * never read through here: they are the backend's truth, asked for on every page.
 */
import * as v from "valibot";
import type { ServiceContext } from "~/context.server";
import { callUpstream, type UpstreamTarget } from "./client.server";

/** How long each kind of read is served without asking the backend. */
export const FRESH_MS = {
  /** Base settings, company: operators change them a few times a year. */
  settings: 5 * 60_000,
  /** Categories, instruments (their static terms; prices come from the market room). */
  instruments: 60_000,
  /** News lists and items. */
  news: 2 * 60_000,
} as const;

/** The wait for a fresh answer when a stale copy can be served instead. */
export const STALE_FALLBACK_TIMEOUT_MS = 2_000;
/** How long an isolate reuses an entry it read from D1 (or stored) before reading D1 again. */
const ISOLATE_KEEP_MS = 5_000;

export interface CachedAnswer<T> {
  data: T;
  /** True when the backend could not be asked or did not answer well, and this is an older copy. */
  stale: boolean;
  fetchedAt: number;
}

export interface CachedCall<S extends v.GenericSchema> {
  path: string;
  params?: Record<string, string | number>;
  schema: S;
  freshMs: number;
}

// The resolved entries only (a promise must not cross requests in Workers).
const kept = new Map<string, { at: number; answer: CachedAnswer<unknown> }>();

/** Drops what this isolate keeps (tests that change the backend's answers). */
export function forgetUpstreamCache() {
  kept.clear();
}

export function cacheKey(lang: string, path: string, params: Record<string, string | number> = {}): string {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return `${lang} ${path}${query ? `?${query}` : ""}`;
}

export function targetOf(ctx: ServiceContext): UpstreamTarget {
  const platform = ctx.config.platform;
  if (platform.kind !== "upstream") throw new Error("not in upstream mode");
  return { baseUrl: platform.apiUrl, secret: ctx.config.upstreamSecret, fetch: ctx.upstreamFetch };
}

/**
 * One cached public read (see the module comment): the backend's `data` checked against the
 * schema, fresh or marked stale, or null when the backend cannot answer and nothing is kept.
 */
export async function cachedRead<S extends v.GenericSchema>(
  ctx: ServiceContext,
  call: CachedCall<S>,
  now = Date.now(),
): Promise<CachedAnswer<v.InferOutput<S>> | null> {
  const key = cacheKey(ctx.lang, call.path, call.params);
  const inIsolate = kept.get(key);
  if (inIsolate && now - inIsolate.at < ISOLATE_KEEP_MS && now - inIsolate.answer.fetchedAt < call.freshMs)
    return inIsolate.answer as CachedAnswer<v.InferOutput<S>>;
  const row = await ctx.d1
    .prepare("SELECT body, fetched_at AS fetchedAt FROM upstream_cache WHERE key = ?1")
    .bind(key)
    .first<{ body: string; fetchedAt: number }>();
  const stored = row ? v.safeParse(call.schema, JSON.parse(row.body)) : null;
  const copy = row && stored?.success ? { data: stored.output, fetchedAt: row.fetchedAt } : null;
  if (copy && now - copy.fetchedAt < call.freshMs) return keep(key, { ...copy, stale: false }, now);

  const answer = await callUpstream(
    { ...targetOf(ctx), timeoutMs: copy ? STALE_FALLBACK_TIMEOUT_MS : undefined },
    { method: "GET", path: call.path, params: call.params, lang: ctx.lang, read: true },
  );
  const fresh = answer.ok ? v.safeParse(call.schema, answer.data) : null;
  if (answer.ok && fresh?.success) {
    await ctx.d1
      .prepare(
        `INSERT INTO upstream_cache (key, body, fetched_at) VALUES (?1, ?2, ?3)
           ON CONFLICT (key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`,
      )
      .bind(key, JSON.stringify(answer.data), now)
      .run();
    return keep(key, { data: fresh.output, stale: false, fetchedAt: now }, now);
  }
  if (answer.ok) console.error(`upstream ${call.path}: the answer does not match the contract`, fresh?.issues?.[0]?.message);
  // the stale copy is not kept in the isolate: the next request asks the backend again
  return copy ? { ...copy, stale: true } : null;
}

function keep<T>(key: string, answer: CachedAnswer<T>, now: number): CachedAnswer<T> {
  kept.set(key, { at: now, answer });
  return answer;
}

/** Entries not read fresh for a week go (news items nobody opens, languages nobody uses): the daily job. */
export async function pruneUpstreamCache(db: D1Database, now = Date.now()): Promise<number> {
  const result = await db
    .prepare("DELETE FROM upstream_cache WHERE fetched_at < ?1")
    .bind(now - 7 * 24 * 60 * 60_000)
    .run();
  return result.meta.changes ?? 0;
}
