import { describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import {
  accountTypeOf,
  checkTransfer,
  csvCell,
  lastPageOf,
  pageParam,
  pickAccount,
  profitPercent,
  toCsv,
  MAX_TRANSFER_MICROS,
} from "~/domain/wallet";
import { memoText, ledgerKindText } from "~/lib/ledger-text";
import { LEDGER_KINDS } from "~/domain/ledger";

const USD = 1_000_000;

/** A t function over the English file, with {{name}} interpolation (as i18next does). */
function t(key: string, options?: Record<string, unknown>): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), en);
  if (typeof value !== "string") return key;
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options?.[name] ?? ""));
}

describe("account types (spec §3: change/micro/forex shown as funding/option/contract)", () => {
  it("reads ids, the spec's type names and the shown names; nothing else", () => {
    expect(["1", "change", "funding", " Change "].map(accountTypeOf)).toEqual([1, 1, 1, 1]);
    expect(["2", "micro", "option", "options"].map(accountTypeOf)).toEqual([2, 2, 2, 2]);
    expect(["3", "forex", "contract", "FOREX"].map(accountTypeOf)).toEqual([3, 3, 3, 3]);
    for (const bad of ["0", "4", "", "01", "1.0", "toString", "__proto__", "constructor", null, undefined])
      expect(accountTypeOf(bad), String(bad)).toBeNull();
  });
});

describe("transfer pair (spec §4: choosing one equal to the other swaps the other)", () => {
  it("picking the other side's account swaps the pair", () => {
    expect(pickAccount({ from: 1, to: 3 }, "from", 3)).toEqual({ from: 3, to: 1 });
    expect(pickAccount({ from: 1, to: 3 }, "to", 1)).toEqual({ from: 3, to: 1 });
  });
  it("picking a third account changes only that side; the pair never holds one account twice", () => {
    expect(pickAccount({ from: 1, to: 3 }, "from", 2)).toEqual({ from: 2, to: 3 });
    expect(pickAccount({ from: 1, to: 3 }, "to", 2)).toEqual({ from: 1, to: 2 });
    const ids = [1, 2, 3] as const;
    for (const from of ids)
      for (const to of ids) {
        if (from === to) continue;
        for (const side of ["from", "to"] as const)
          for (const v of ids) {
            const next = pickAccount({ from, to }, side, v);
            expect(next.from).not.toBe(next.to);
            expect(next[side]).toBe(v);
          }
      }
  });
});

describe("transfer checks (spec §5, issue 10 bad input)", () => {
  it("accepts a positive amount with at most 2 decimals between two different accounts", () => {
    expect(checkTransfer({ from: "change", to: "forex", amount: "12.50" })).toEqual({ ok: true, from: 1, to: 3, amount: 12_500_000 });
    expect(checkTransfer({ from: "2", to: "1", amount: "0.01" }, 10_000)).toEqual({ ok: true, from: 2, to: 1, amount: 10_000 });
  });
  it("refuses the same account, unknown accounts and every bad amount, naming the field", () => {
    expect(checkTransfer({ from: "1", to: "funding", amount: "1" })).toEqual({
      ok: false,
      error: "transfer.err_same_account",
      field: "to",
    });
    expect(checkTransfer({ from: "9", to: "1", amount: "1" })).toMatchObject({ ok: false, error: "transfer.err_account", field: "from" });
    expect(checkTransfer({ from: "1", to: null, amount: "1" })).toMatchObject({ ok: false, error: "transfer.err_account", field: "to" });
    expect(checkTransfer({ from: "1", to: "3", amount: "  " })).toMatchObject({
      ok: false,
      error: "transfer.err_amount_required",
      field: "balance",
    });
    expect(checkTransfer({ from: "1", to: "3", amount: undefined })).toMatchObject({ ok: false, error: "transfer.err_amount_required" });
    for (const bad of ["0", "0.00", "-1", "1.234", "abc", "1e3", "1,5", "NaN", "Infinity", "0x10"]) {
      expect(checkTransfer({ from: "1", to: "3", amount: bad }), bad).toMatchObject({
        ok: false,
        error: "transfer.err_amount_invalid",
        field: "balance",
      });
    }
    expect(checkTransfer({ from: "1", to: "3", amount: String(MAX_TRANSFER_MICROS / USD + 1) })).toMatchObject({
      ok: false,
      error: "transfer.err_amount_max",
    });
  });
  it("refuses more than the available balance, accepts exactly all of it", () => {
    // the message names the account the money comes from
    expect(checkTransfer({ from: "1", to: "3", amount: "100.01" }, 100 * USD)).toMatchObject({
      ok: false,
      error: "transfer.err_insufficient_funding",
      field: "balance",
    });
    expect(checkTransfer({ from: "3", to: "1", amount: "100.01" }, 100 * USD)).toMatchObject({
      ok: false,
      error: "transfer.err_insufficient_contract",
      field: "balance",
    });
    expect(checkTransfer({ from: "micro", to: "1", amount: "100.01" }, 100 * USD)).toMatchObject({
      ok: false,
      error: "transfer.err_insufficient_options",
      field: "balance",
    });
    expect(checkTransfer({ from: "1", to: "3", amount: "100" }, 100 * USD)).toMatchObject({ ok: true, amount: 100 * USD });
  });
  it("moves a balance of more than 2 decimals only as a whole (transfer all): 0.175 of 0.175, never 0.175 of 0.2", () => {
    expect(checkTransfer({ from: "1", to: "3", amount: "0.175" }, 175_000)).toMatchObject({ ok: true, amount: 175_000 });
    expect(checkTransfer({ from: "1", to: "3", amount: "0.1750" }, undefined, 175_000)).toMatchObject({ ok: true, amount: 175_000 });
    expect(checkTransfer({ from: "1", to: "3", amount: "0.17" }, 175_000)).toMatchObject({ ok: true, amount: 170_000 });
    expect(checkTransfer({ from: "1", to: "3", amount: "0.175" }, undefined, 200_000)).toMatchObject({
      ok: false,
      error: "transfer.err_amount_invalid",
    });
    expect(checkTransfer({ from: "1", to: "3", amount: "0.175" })).toMatchObject({ ok: false, error: "transfer.err_amount_invalid" });
  });
});

describe("today's percentage (spec §9: profit / total × 100, 2 decimals)", () => {
  it("computes on integers and rounds half away from zero", () => {
    expect(profitPercent(12_345_000, 1_000 * USD)).toBe("1.23"); // 1.2345 %
    expect(profitPercent(12_350_000, 1_000 * USD)).toBe("1.24"); // 1.235 % → up
    expect(profitPercent(-12_350_000, 1_000 * USD)).toBe("-1.24");
    expect(profitPercent(1, 3 * USD)).toBe("0.00");
    expect(profitPercent(-1, 3 * USD)).toBe("0.00"); // no "-0.00"
    expect(profitPercent(USD, 3 * USD)).toBe("33.33");
    expect(profitPercent(2 * USD, 3 * USD)).toBe("66.67");
    expect(profitPercent(300 * USD, 100 * USD)).toBe("300.00");
  });
  it("is 0.00 without a balance", () => {
    expect(profitPercent(5 * USD, 0)).toBe("0.00");
  });
});

describe("paging", () => {
  it("reads a page number, 1 for anything odd", () => {
    expect(["2", "1", "0", "-1", "abc", "", null, "1e3", "99999999"].map((p) => pageParam(p))).toEqual([2, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(pageParam("500000")).toBe(10_000);
    expect([lastPageOf(0, 20), lastPageOf(20, 20), lastPageOf(21, 20)]).toEqual([1, 1, 2]);
  });
});

describe("CSV statement cells", () => {
  it("neutralises text that spreadsheets would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("Deposit")).toBe("Deposit");
  });
  it("keeps amounts numeric (negative ones too) and refuses anything that is not a plain number", () => {
    expect(csvCell({ number: "-12.50" })).toBe("-12.50");
    expect(csvCell({ number: "7.00" })).toBe("7.00");
    expect(() => csvCell({ number: "=1+1" })).toThrow();
    expect(() => csvCell({ number: "1e5" })).toThrow();
  });
  it("quotes commas, quotes and line breaks; rows end with CRLF", () => {
    expect(toCsv([["a,b", 'say "hi"', "line\nbreak", { number: "-1.00" }]])).toBe(`"a,b","say ""hi""","line\nbreak",-1.00\r\n`);
  });
});

describe("account log words", () => {
  it("every ledger kind has an English label", () => {
    for (const kind of LEDGER_KINDS) expect(ledgerKindText(t, kind), kind).not.toBe(`ledger_kind.${kind}`);
  });
  it("translates memos: keys, keys with an argument, transfers naming their accounts; leaves plain text", () => {
    expect(memoText(t, "transfer.memo|funding|contract")).toBe("Transfer from Funding to Contract");
    expect(memoText(t, "memo.option_stake")).toBe("Option bought: stake held");
    expect(memoText(t, "transfer.memo|funding|nope")).toBe("Transfer from {{from}} to {{to}}".replace(/\{\{\w+\}\}/g, ""));
    expect(memoText(t, "")).toBe("");
    expect(memoText(t, "free text from an operator")).toBe("free text from an operator");
  });
});
