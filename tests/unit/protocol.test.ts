import { describe, expect, it } from "vitest";
import { widen } from "~/domain/engine";
import { FrameBudget, frameBytes, parseClientMessage } from "~/domain/protocol";

describe("socket frames (spec §4) are parsed without trusting them", () => {
  it("accepts the protocol's messages", () => {
    expect(parseClientMessage(JSON.stringify({ type: "sub", topic: "KLINE.BTCUSDT", period: "1min" }))).toEqual({
      ok: true,
      message: { type: "sub", topic: "KLINE.BTCUSDT", period: "1min" },
    });
    expect(parseClientMessage(JSON.stringify({ type: "ping", timestamp: 5 }))).toEqual({
      ok: true,
      message: { type: "ping", timestamp: 5 },
    });
    expect(parseClientMessage(JSON.stringify({ type: "login", token: "t" }))).toEqual({ ok: true, message: { type: "login", token: "t" } });
  });

  it("answers crafted values with a warning and never calls into them", () => {
    const crafted = [
      { type: "sub", topic: "KLINE.BTCUSDT", period: { toString: 1 } },
      { type: "sub", topic: { toString: 1 } },
      { type: { toString: 1 } },
      { type: "login", token: { length: 3 } },
      { type: "sub", topic: "a b" },
      { type: "nope".repeat(100) },
    ];
    for (const m of crafted) {
      const result = parseClientMessage(JSON.stringify(m));
      expect(result.ok, JSON.stringify(m)).toBe(false);
      if (!result.ok) expect(result.warning.length).toBeLessThan(80);
    }
    expect(parseClientMessage(new ArrayBuffer(4))).toEqual({ ok: false, warning: "frames must be JSON text" });
    expect(frameBytes(new Uint8Array(9))).toBe(9);
  });

  it("budgets frames per window and counts refusals", () => {
    const budget = new FrameBudget(3, 1000);
    expect([0, 1, 2, 3].map((t) => budget.take(t))).toEqual([true, true, true, false]);
    expect(budget.violations).toBe(1);
    expect(budget.take(1001)).toBe(true);
  });
});

describe("engine ranges", () => {
  it("widen keeps the first price, the extremes and the last", () => {
    let r = widen(undefined, "X", 10);
    for (const p of [12, 7, 9]) r = widen(r, "X", p);
    expect(r).toEqual({ code: "X", open: 10, low: 7, high: 12, last: 9 });
  });
});
