/**
 * The in-Worker memory cache of rarely changing content (the design card's "D1 caches settings
 * and news"): the base settings and the company, news pages and items, announcements.
 *
 * - Each cached value is kept under the version of its family (`cache_versions`: "settings",
 *   "news") it was read at. An operator's edit bumps the family's counter IN THE SAME BATCH as the
 *   edit (`bumpStatement`), so the counter never says "unchanged" about changed content.
 * - An isolate reads the counters (one query, all families) at most every `checkMs`: 2 s in
 *   production, every request locally. So an edit is seen at once by the isolate that made it
 *   (it forgets its counters after the batch) and within 2 s by every other isolate: that is the
 *   staleness bound. Locally (wrangler dev, tests) every request sees the last edit.
 * - A bump sets the counter to max(counter + 1, now in ms): counters never repeat, even across
 *   databases (a test's fresh database never meets a value cached for another one).
 * - At most MAX_ENTRIES values are kept (the oldest dropped first); a value is shared by every
 *   request of the isolate, so callers must not change what they get.
 */
/** What the cache needs of a ServiceContext (one object per request: the counters are read once per request). */
export interface CacheContext {
  /** D1 (typed by the little the cache uses, so the rules can be tested without the Workers types). */
  d1: { prepare(query: string): { all<T = unknown>(): Promise<{ results: T[] }> } };
  config: { isLocal: boolean };
}

export type CacheFamily = "settings" | "news";

export const PRODUCTION_CHECK_MS = 2_000;
const MAX_ENTRIES = 300;

interface Versions {
  at: number;
  values: Map<string, number>;
}

let known: Versions | null = null;
let reading: Promise<Versions> | null = null;
/** Bumped by forgetVersions: a read that started before an edit does not become `known`. */
let generation = 0;
const perRequest = new WeakMap<object, Promise<Versions>>();
const entries = new Map<string, { version: number; at: number; value: unknown }>();

async function readVersions(d1: CacheContext["d1"], now: number): Promise<Versions> {
  const rows = await d1.prepare("SELECT name, version FROM cache_versions").all<{ name: string; version: number }>();
  return { at: now, values: new Map(rows.results.map((r) => [r.name, r.version])) };
}

/** The counters as this request sees them (read at most once per request, and at most every checkMs per isolate). */
function versionsFor(ctx: CacheContext, checkMs: number, now: number): Promise<Versions> {
  const mine = perRequest.get(ctx);
  if (mine) return mine;
  let promise: Promise<Versions>;
  if (known && now - known.at < checkMs) promise = Promise.resolve(known);
  else {
    const started = generation;
    reading ??= readVersions(ctx.d1, now)
      .then((v) => {
        if (started === generation) known = v;
        return v;
      })
      .finally(() => (reading = null));
    promise = reading;
  }
  perRequest.set(ctx, promise);
  return promise;
}

export function checkIntervalOf(ctx: CacheContext) {
  return ctx.config.isLocal ? 0 : PRODUCTION_CHECK_MS;
}

/**
 * The value under `key` of `family`: from memory when it was read at the family's current
 * version, else loaded (and kept).
 */
export async function cached<T>(
  ctx: CacheContext,
  family: CacheFamily,
  key: string,
  load: () => Promise<T>,
  options: { checkMs?: number; now?: number; /** Also reload after this long, whatever the counter says. */ maxAgeMs?: number } = {},
): Promise<T> {
  const now = options.now ?? Date.now();
  const versions = await versionsFor(ctx, options.checkMs ?? checkIntervalOf(ctx), now);
  const version = versions.values.get(family) ?? 0;
  const fullKey = `${family}:${key}`;
  const hit = entries.get(fullKey);
  if (hit && hit.version === version && (options.maxAgeMs === undefined || now - hit.at < options.maxAgeMs)) return hit.value as T;
  const value = await load();
  entries.delete(fullKey);
  entries.set(fullKey, { version, at: now, value });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return value;
}

/** The statement that bumps a family's counter: put it in the edit's batch. */
export function bumpStatement<S>(
  d1: { prepare(query: string): { bind(...values: unknown[]): S } },
  family: CacheFamily,
  now = Date.now(),
): S {
  return d1
    .prepare("INSERT INTO cache_versions (name, version) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET version = max(version + 1, ?2)")
    .bind(family, now);
}

/** After an edit's batch: this isolate reads the counters again on its next request. */
export function forgetVersions() {
  generation += 1;
  known = null;
  reading = null;
}

/** For tests: drop everything this isolate holds. */
export function clearContentCache() {
  known = null;
  entries.clear();
}
