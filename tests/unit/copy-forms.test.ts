// The copy-trading commands parse the same way from a page's form and from a spec §7 call: one
// schema per command (app/forms/copy.ts), the call's parameters mapped onto the page's names first.
// Field refusals of a follow travel inside the command (the service answers them in its order);
// ids that are not ids become null (answered like unknown ones).
import { describe, expect, it } from "vitest";
import {
  ApplySchema,
  CopyStopSchema,
  FollowOrdersQuerySchema,
  FollowSchema,
  PageQuerySchema,
  PauseSchema,
  ProfitShareSchema,
  ReviewSchema,
  TraderQuerySchema,
  TraderStatusSchema,
  UnfollowSchema,
  appliesByCall,
  applyFieldsOfCall,
  copyStopFieldsOfCall,
  followFieldsOfCall,
  followOrdersFieldsOfCall,
  operatorFieldsOf,
  pauseFieldsOfCall,
  traderQueryFieldsOfCall,
  unfollowFieldsOfCall,
} from "~/forms/copy";
import { parseFields } from "~/forms/parse";

const USD = 1_000_000;
const call = (query: string) => new URLSearchParams(query);
function value<T>(parsed: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!parsed.ok) throw new Error(`refused: ${JSON.stringify(parsed.errors)}`);
  return parsed.value;
}

describe("follow_trader and the follow form", () => {
  it("the page's fields and the call's parameters give the same typed command", () => {
    const page = value(parseFields(FollowSchema, { trader_id: "42", multiple: "3", max_amount: "250.5", request_id: "abcdefgh12" }));
    const api = value(parseFields(FollowSchema, followFieldsOfCall(call("trader_id=42&multiple=3&max_amount=250.5"))));
    expect(page).toEqual({ traderId: 42, multiple: { check: "ok", multiple: 3 }, maxAmount: { ok: true, value: 250.5 * USD } });
    expect(api).toEqual(page);
  });

  it("refusals of the multiple and the bond travel in the command; an id that is not one is null", () => {
    const cmd = (q: string) => value(parseFields(FollowSchema, followFieldsOfCall(call(q))));
    expect(cmd("trader_id=abc&multiple=0&max_amount=")).toEqual({
      traderId: null,
      multiple: { check: "copy.multiple_range", multiple: 0 },
      maxAmount: { ok: false, error: "copy.bond_required" },
    });
    expect(cmd("trader_id=7&multiple=2.5&max_amount=1e3")).toMatchObject({
      multiple: { check: "copy.multiple_invalid" },
      maxAmount: { ok: false, error: "copy.bond_invalid" },
    });
    expect(cmd("trader_id=7&multiple=&max_amount=-5")).toMatchObject({
      multiple: { check: "copy.multiple_required" },
      maxAmount: { ok: false, error: "copy.bond_invalid" },
    });
    // a well-formed amount too large to hold is more than any balance
    expect(cmd("trader_id=7&multiple=2&max_amount=99999999999999999999999").maxAmount).toEqual({
      ok: false,
      error: "copy.bond_above_balance",
    });
    expect(cmd("multiple=2&max_amount=5").traderId).toBeNull();
    expect(cmd("trader_id=%2012%20&multiple=2&max_amount=5").traderId).toBe(12);
  });
});

describe("canal_follow, pause_follow, set_copy_stop and the trader page's forms", () => {
  it("unfollow: close_orders 1 / true / close closes the open copies now, anything else lets them run; the page's open=close alike", () => {
    const open = (q: string) => value(parseFields(UnfollowSchema, unfollowFieldsOfCall(call(q)))).open;
    expect(["trader_id=5&close_orders=1", "trader_id=5&close_orders=true", "trader_id=5&close_orders=close"].map(open)).toEqual([
      "close",
      "close",
      "close",
    ]);
    expect(["trader_id=5", "trader_id=5&close_orders=0", "trader_id=5&close_orders=yes"].map(open)).toEqual(["keep", "keep", "keep"]);
    expect(value(parseFields(UnfollowSchema, { trader_id: "5", open: "close" }))).toEqual({ traderId: 5, open: "close" });
    expect(value(parseFields(UnfollowSchema, { trader_id: "5", open: "keep" }))).toEqual({ traderId: 5, open: "keep" });
    expect(value(parseFields(UnfollowSchema, { trader_id: "5", open: "later" })).open).toBe("keep");
  });

  it("pause: paused=0 resumes, any other value or none pauses", () => {
    const paused = (q: string) => value(parseFields(PauseSchema, pauseFieldsOfCall(call(q))));
    expect(paused("trader_id=5")).toEqual({ traderId: 5, paused: true });
    expect(paused("trader_id=5&paused=1").paused).toBe(true);
    expect(paused("trader_id=5&paused=").paused).toBe(true);
    expect(paused("trader_id=5&paused=0").paused).toBe(false);
    expect(paused("trader_id=x&paused=0").traderId).toBeNull();
  });

  it("copy stop-loss: empty is none (0), two decimals at most, never negative", () => {
    const stop = (q: string) => value(parseFields(CopyStopSchema, copyStopFieldsOfCall(call(q)))).copyStopLoss;
    expect(stop("trader_id=5&copy_stop_loss=")).toEqual({ ok: true, value: 0 });
    expect(stop("trader_id=5&copy_stop_loss=25.5")).toEqual({ ok: true, value: 25.5 * USD });
    expect(stop("trader_id=5&copy_stop_loss=-1")).toEqual({ ok: false, error: "copy.stop_invalid" });
    expect(stop("trader_id=5&copy_stop_loss=1.234")).toEqual({ ok: false, error: "copy.stop_invalid" });
    expect(value(parseFields(CopyStopSchema, { trader_id: "9", copy_stop_loss: "10" }))).toEqual({
      traderId: 9,
      copyStopLoss: { ok: true, value: 10 * USD },
    });
  });
});

describe("apply_trader and the application form", () => {
  it("the page's checkbox counts when it says on; the call accepts 1, on and true", () => {
    expect(value(parseFields(ApplySchema, { agree: "on" }))).toEqual({ agree: true });
    expect(value(parseFields(ApplySchema, {}))).toEqual({ agree: false });
    expect(value(parseFields(ApplySchema, { agree: "1" }))).toEqual({ agree: false });
    for (const q of ["agree=1", "agree=on", "agree=true", "agree=%20true%20"])
      expect(value(parseFields(ApplySchema, applyFieldsOfCall(call(q)))), q).toEqual({ agree: true });
    for (const q of ["agree=", "agree=0", "agree=yes", ""])
      expect(value(parseFields(ApplySchema, applyFieldsOfCall(call(q)))), q).toEqual({ agree: false });
  });

  it("a GET without agree reads the application; a GET with it, or a POST, applies", () => {
    expect(appliesByCall("GET", call(""))).toBe(false);
    expect(appliesByCall("GET", call("agree="))).toBe(true);
    expect(appliesByCall("POST", call(""))).toBe(true);
  });
});

describe("the operator's traders page", () => {
  it("the review forms name the application by id, the traders' forms by trader_id; a share is a percentage 0–50 stored as a decimal", () => {
    const form = (init: Record<string, string>) => operatorFieldsOf(new URLSearchParams(init));
    expect(value(parseFields(ReviewSchema, form({ id: "12", reason: "not yet" })))).toEqual({ id: 12, reason: "not yet" });
    expect(value(parseFields(ReviewSchema, form({ id: "12" })))).toEqual({ id: 12, reason: "" });
    expect(value(parseFields(TraderStatusSchema, form({ trader_id: "8", reason: "risk" })))).toEqual({ traderId: 8, reason: "risk" });
    expect(value(parseFields(ProfitShareSchema, form({ trader_id: "8", profit_share: "12.5" })))).toEqual({ traderId: 8, share: "0.125" });
    expect(parseFields(ProfitShareSchema, form({ trader_id: "8", profit_share: "50.5" }))).toEqual({
      ok: false,
      errors: { profit_share: "copy.share_invalid" },
    });
    expect(parseFields(ProfitShareSchema, form({ trader_id: "8" }))).toMatchObject({
      ok: false,
      errors: { profit_share: "copy.share_invalid" },
    });
    expect(parseFields(TraderStatusSchema, form({ trader_id: "t8" }))).toMatchObject({ ok: false, errors: { id: "errors.bad_request" } });
    expect(parseFields(ReviewSchema, form({}))).toMatchObject({ ok: false, errors: { id: "errors.bad_request" } });
  });
});

describe("the calls' queries", () => {
  it("page: a number as given, 1 when absent, empty, zero or not a number", () => {
    const page = (q: string) => value(parseFields(PageQuerySchema, call(q))).page;
    expect([page(""), page("page="), page("page=0"), page("page=abc"), page("page=3"), page("page=2.5")]).toEqual([1, 1, 1, 1, 3, 2.5]);
  });

  it("trader_detail reads trader_id, else id", () => {
    const id = (q: string) => value(parseFields(TraderQuerySchema, traderQueryFieldsOfCall(call(q)))).trader_id;
    expect([id("trader_id=4"), id("id=4"), id("trader_id=x&id=4"), id("trader_id=&id=4"), id("")]).toEqual([
      4,
      4,
      null,
      undefined,
      undefined,
    ]);
  });

  it("my_deal_follow_order: ids absent, given, or given but not ids; the status as a number (an empty one is 0)", () => {
    const q = (s: string) => value(parseFields(FollowOrdersQuerySchema, followOrdersFieldsOfCall(call(s))));
    expect(q("")).toEqual({ status: 1, page: 1 });
    expect(q("status=3&follow_id=0&user_id=abc&follower_user_id=77&page=2")).toEqual({
      status: 3,
      follow_id: 0,
      user_id: null,
      follower_user_id: 77,
      page: 2,
    });
    expect(q("status=").status).toBe(0);
    expect(q("status=2").status).toBe(2);
  });
});
