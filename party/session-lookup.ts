/**
 * Session lookups of a live room: answers from a short-lived cache, and lookups that arrive
 * within a few milliseconds of each other share one query (`load` gets every id at once). So a
 * flood of login frames costs at most one D1 query per batch window, whatever their number.
 */
export class SessionLookup {
  private cache = new Map<string, { userId: number | null; at: number }>();
  private pending = new Map<string, ((userId: number | null) => void)[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** How many queries this lookup has made (for tests and logs). */
  queries = 0;

  constructor(
    private readonly load: (ids: string[]) => Promise<Map<string, number>>,
    private readonly options: { ttlMs: number; batchMs: number; maxEntries?: number },
  ) {}

  get(sessionId: string, now = Date.now()): Promise<number | null> {
    const cached = this.cache.get(sessionId);
    if (cached && now - cached.at < this.options.ttlMs) return Promise.resolve(cached.userId);
    return new Promise((resolve) => {
      const waiting = this.pending.get(sessionId);
      if (waiting) waiting.push(resolve);
      else this.pending.set(sessionId, [resolve]);
      this.timer ??= setTimeout(() => void this.flush(), this.options.batchMs);
    });
  }

  /** Records fresh answers (a periodic re-check refreshes the cache with them). */
  remember(ids: string[], live: Map<string, number>, now = Date.now()) {
    for (const id of ids) this.cache.set(id, { userId: live.get(id) ?? null, at: now });
    if (this.cache.size > (this.options.maxEntries ?? 10_000)) this.cache.clear();
  }

  /** Loads a set of ids in one query; null when the query failed. */
  async loadMany(ids: string[]): Promise<Map<string, number> | null> {
    this.queries += 1;
    try {
      return await this.load(ids);
    } catch (error) {
      console.error("session lookup failed", error);
      return null;
    }
  }

  private async flush() {
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    // A failed query logs nobody in (and caches nothing).
    const live = await this.loadMany(ids);
    if (live) this.remember(ids, live);
    for (const [id, resolvers] of batch) for (const resolve of resolvers) resolve(live?.get(id) ?? null);
  }
}
