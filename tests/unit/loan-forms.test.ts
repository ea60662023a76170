// The loan commands' one parser (app/forms/loan.ts): the spec §7 field names, as the JSON API and
// the pages send them, become the services' typed commands; nothing a client sends is read twice.
import { describe, expect, it } from "vitest";
import {
  ApplicationSchema,
  ConfigSchema,
  DecisionSchema,
  KycSchema,
  LoanSubmitSchema,
  PageSchema,
  RepaySchema,
  SignSchema,
  agreementQuery,
  withConfigId,
} from "~/forms/loan";
import { parseFields } from "~/forms/parse";

const parsed = <T>(result: { ok: true; value: T } | { ok: false }) => {
  if (!result.ok) throw new Error("refused");
  return result.value;
};

describe("loan commands", () => {
  it("kyc_submit: name is the last name and last_name the first name; missing fields are empty for the service to name", () => {
    expect(parsed(parseFields(KycSchema, { name: "Lovelace", last_name: "Ada", sex: "2", hand_pic: "/uploads/x" }))).toEqual({
      lastName: "Lovelace",
      firstName: "Ada",
      sex: "2",
      birthday: "",
      country: "",
      mobile: "",
      idCardType: "",
      handPic: "/uploads/x",
    });
  });

  it("get_date takes config_id, or id without it; the agreement pages' id is the config id", () => {
    const of = (q: string) => parsed(parseFields(ApplicationSchema, withConfigId(new URLSearchParams(q))));
    expect(of("config_id=2&amount=5000")).toEqual({ configId: 2, amount: "5000" });
    expect(of("id=3&amount=10")).toEqual({ configId: 3, amount: "10" });
    expect(of("config_id=&id=3&amount=10")).toEqual({ configId: null, amount: "10" });
    expect(parsed(parseFields(ApplicationSchema, agreementQuery(new URLSearchParams("id=2&config_id=1&amount=7"))))).toEqual({
      configId: 2,
      amount: "7",
    });
    expect(of("config_id=abc")).toEqual({ configId: null, amount: "" });
  });

  it("loan_submit: the signature fields and a valid request_id; the API's agreement is not read, the sign page's is", () => {
    const api = parsed(
      parseFields(LoanSubmitSchema, {
        config_id: "1",
        amount: "500",
        signature_name: "Ada Lovelace",
        request_id: "short",
        agreement: "x",
        terms: "y",
      }),
    );
    expect(api).toEqual({ configId: 1, amount: "500", sign: "", signatureName: "Ada Lovelace", requestId: undefined, shown: null });
    const page = parsed(
      parseFields(SignSchema, { config_id: "1", amount: "500", sign: "abc", request_id: "abcdefgh-123", shown_at: "1700000000000" }),
    );
    expect(page).toMatchObject({ sign: "abc", requestId: "abcdefgh-123", shown: { at: 1_700_000_000_000, lang: undefined, terms: "" } });
  });

  it("repayment: loan_id, charge_id and proofImg; ids that are not numbers are none", () => {
    expect(parsed(parseFields(RepaySchema, { loan_id: " 12 ", charge_id: "x", proofImg: "p" }))).toEqual({
      loanId: 12,
      chargeId: null,
      proofImg: "p",
    });
    expect(parsed(parseFields(PageSchema, { page: "abc" }))).toEqual({ page: 1 });
    expect(parsed(parseFields(PageSchema, { page: "3" }))).toEqual({ page: 3 });
  });

  it("the operator's decision needs a record id; an edit of the terms becomes numbers and rates, withdrawn without status", () => {
    expect(parseFields(DecisionSchema, { subject: "loan", id: "abc" })).toMatchObject({ ok: false });
    expect(parsed(parseFields(DecisionSchema, { subject: "loan", id: "7", reason: "r".repeat(400) }))).toEqual({
      subject: "loan",
      id: 7,
      reason: "r".repeat(300),
    });
    const terms = parsed(
      parseFields(ConfigSchema, {
        loan_period: "30",
        free_period: "x",
        min_amount: "100.5",
        max_amount: "abc",
        interest_rate: " 4 ",
        penalty_rate: "25",
      }),
    );
    expect(terms).toMatchObject({ loanPeriod: 30, minAmount: 100_500_000, interestRate: "4", penaltyRate: "25", status: 0 });
    expect(terms.freePeriod).toBeNaN();
    expect(terms.maxAmount).toBeNaN();
    expect(parsed(parseFields(ConfigSchema, { status: "1" })).status).toBe(1);
  });
});
