import { describe, expect, it } from "vitest";
import { checkStake } from "~/domain/option";
import { ApiOptionSchema, OptionListSchema, OptionSchema, buyCommandOf, buyErrorsOf, optionFieldsOfApi } from "~/forms/option";
import { parseFields, parseQuery, submissionOf } from "~/forms/parse";

const USD = 1_000_000;

describe("one option command for the page and the JSON API", () => {
  const api = (params: Record<string, string>) => {
    const parsed = parseFields(ApiOptionSchema, optionFieldsOfApi(new URLSearchParams(params)));
    return parsed.ok ? buyCommandOf(parsed.value) : parsed.errors;
  };

  it("spec §7 micro/submit's parameters give the command the future tab's form gives", () => {
    const fields = { forex_id: "2", type: "2", number: " 10 ", seconds: "60", request_id: "abcdefgh-1" };
    const page = submissionOf(OptionSchema, new URLSearchParams(fields));
    expect(page.status).toBe("success");
    expect(api(fields)).toEqual(page.status === "success" ? buyCommandOf(page.value) : null);
    expect(api(fields)).toEqual({ instrumentId: 2, direction: 2, amount: "10", seconds: 60, requestKey: "abcdefgh-1" });
  });

  it("the page asks for a direction, the API answers a bad request; a malformed request id is ignored by the API", () => {
    expect(submissionOf(OptionSchema, new URLSearchParams({ forex_id: "2", number: "10", seconds: "60" })).reply().error).toEqual({
      type: ["options.choose_direction"],
    });
    expect(api({ forex_id: "2", number: "10", seconds: "60" })).toEqual({ type: "errors.bad_request" });
    expect(api({ forex_id: "2", type: "1", seconds: "x" })).toEqual({ seconds: "errors.unknown_duration" });
    expect(api({ forex_id: "2", type: "1", number: "10", seconds: "60", request_id: "no" })).toMatchObject({ requestKey: undefined });
  });

  it("a refusal by command field is named by the form's fields; the stake is checked against the duration's minimum", () => {
    expect(buyErrorsOf({ amount: "errors.amount_min|10" })).toEqual({ number: "errors.amount_min|10" });
    expect(buyErrorsOf({ direction: "errors.bad_request" })).toEqual({ type: "errors.bad_request" });
    expect(checkStake("", 10 * USD, 1_000_000 * USD)).toEqual({ ok: false, message: "errors.amount_required" });
    expect(checkStake("5", 10 * USD, 1_000_000 * USD)).toEqual({ ok: false, message: "errors.amount_min|10" });
    expect(checkStake("10.001", 10 * USD, 1_000_000 * USD)).toEqual({ ok: false, message: "errors.amount_invalid" });
    expect(checkStake("5000000", 10 * USD, 1_000_000 * USD)).toEqual({ ok: false, message: "errors.amount_max|1000000" });
    expect(checkStake("10", 10 * USD, 1_000_000 * USD)).toEqual({ ok: true, amount: 10 * USD });
  });

  it("micro/orders reads its list as a number (1 in transaction, 3 closed)", () => {
    expect(parseQuery(OptionListSchema, new URLSearchParams({ status: "3", page: "2" }))).toEqual({
      ok: true,
      value: { status: 3, page: 2 },
    });
    expect(parseQuery(OptionListSchema, new URLSearchParams({ status: "" }))).toEqual({
      ok: false,
      errors: { status: "errors.bad_request" },
    });
  });
});
