import { describe, expect, it } from "vitest";
import { SessionLookup } from "../../party/session-lookup";

describe("socket session lookups", () => {
  it("a burst of logins shares one query, and answers come from the cache afterwards", async () => {
    const calls: string[][] = [];
    const lookup = new SessionLookup(
      async (ids) => {
        calls.push(ids);
        return new Map(ids.filter((id) => id.startsWith("live")).map((id) => [id, 7]));
      },
      { ttlMs: 1000, batchMs: 5 },
    );
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => lookup.get("live-1")),
      lookup.get("dead-1"),
      lookup.get("live-2"),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.sort()).toEqual(["dead-1", "live-1", "live-2"]);
    expect(answers.slice(0, 50).every((a) => a === 7)).toBe(true);
    expect(answers.slice(50)).toEqual([null, 7]);
    // unknown ids are cached too: a flood of one bad token costs nothing more
    await Promise.all(Array.from({ length: 20 }, () => lookup.get("dead-1")));
    expect(calls).toHaveLength(1);
  });

  it("looks again once the cache is stale, and a failed query logs nobody in", async () => {
    let fail = false;
    let now = 0;
    const lookup = new SessionLookup(
      async (ids) => {
        if (fail) throw new Error("D1 down");
        return new Map(ids.map((id) => [id, 1]));
      },
      { ttlMs: 100, batchMs: 1 },
    );
    expect(await lookup.get("a", now)).toBe(1);
    now += 50;
    expect(await lookup.get("a", now)).toBe(1);
    fail = true;
    expect(await lookup.get("a", Date.now() + 1000)).toBeNull();
    expect(lookup.queries).toBe(2);
  });
});
