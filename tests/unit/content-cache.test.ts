// The content cache's rules with a counting stand-in for D1: values are kept under their
// family's counter; the counters are read at most once per request and at most every checkMs
// per isolate (the staleness bound); an edit's bump is seen at once by the isolate that made it.
import { beforeEach, describe, expect, it } from "vitest";
import { cached, clearContentCache, forgetVersions, type CacheContext } from "~/services/cache.server";

function fakeDb(versions: Map<string, number>) {
  const db = {
    reads: 0,
    prepare: () => ({
      all: async () => {
        db.reads += 1;
        return { results: [...versions].map(([name, version]) => ({ name, version })) };
      },
    }),
  };
  return db;
}

function request(db: ReturnType<typeof fakeDb>, isLocal = false) {
  return { d1: db, config: { isLocal } } as unknown as CacheContext;
}

describe("content cache", () => {
  beforeEach(() => clearContentCache());

  it("keeps a value until its family's counter changes, reading the counters at most every 2 s", async () => {
    const versions = new Map([["news", 1]]);
    const db = fakeDb(versions);
    let loads = 0;
    const load = async () => `value ${++loads}`;
    const t0 = 1_000_000;
    expect(await cached(request(db), "news", "k", load, { now: t0 })).toBe("value 1");
    expect(await cached(request(db), "news", "k", load, { now: t0 + 500 })).toBe("value 1");
    expect(db.reads).toBe(1);
    // another isolate's edit: not seen before the interval ends, seen after it
    versions.set("news", 2);
    expect(await cached(request(db), "news", "k", load, { now: t0 + 1_999 })).toBe("value 1");
    expect(await cached(request(db), "news", "k", load, { now: t0 + 2_001 })).toBe("value 2");
    expect(db.reads).toBe(2);
    // another family's counter does not drop it
    versions.set("settings", 9);
    expect(await cached(request(db), "news", "k", load, { now: t0 + 4_500 })).toBe("value 2");
  });

  it("an edit in this isolate is seen by the next request at once; one request reads the counters once", async () => {
    const versions = new Map([["news", 1]]);
    const db = fakeDb(versions);
    let loads = 0;
    const load = async () => ++loads;
    const ctx = request(db);
    await Promise.all([cached(ctx, "news", "a", load, { now: 10 }), cached(ctx, "news", "b", load, { now: 10 })]);
    expect(db.reads).toBe(1);
    versions.set("news", 2);
    forgetVersions();
    expect(await cached(request(db), "news", "a", load, { now: 20 })).toBe(3);
  });

  it("locally reads the counters on every request", async () => {
    const versions = new Map([["news", 1]]);
    const db = fakeDb(versions);
    await cached(request(db, true), "news", "k", async () => 1, { now: 1 });
    versions.set("news", 2);
    expect(await cached(request(db, true), "news", "k", async () => 2, { now: 2 })).toBe(2);
  });

  it("reloads after maxAgeMs even when the counter did not move", async () => {
    const db = fakeDb(new Map());
    expect(await cached(request(db), "settings", "c", async () => "old", { now: 0, maxAgeMs: 60_000 })).toBe("old");
    expect(await cached(request(db), "settings", "c", async () => "new", { now: 30_000, maxAgeMs: 60_000 })).toBe("old");
    expect(await cached(request(db), "settings", "c", async () => "new", { now: 60_001, maxAgeMs: 60_000 })).toBe("new");
  });
});
