/**
 * The loan commands (spec §7 /api/loan/* field names, which the pages post too): the KYC
 * submission, a config and an amount (the summary), applying with a signature, a repayment
 * proof, and on the operator's console a decision and an edit of the terms. One schema per
 * command, parsed by the route's action and by the JSON API alike (parseFields); each yields the
 * service's typed command (app/services/loan/*).
 *
 * The schemas read the fields' shape (text, ids as numbers or null, the form's request id); the
 * rules are the services' and domain's, because a submission's refusals come back all at once,
 * field by field, and several of them need the database beside the pure checks (an upload of this
 * user, an offered config and its bounds, the KYC name a typed signature must match): the service
 * answers with every refusal of the same submission, for the page and the API alike.
 */
import * as v from "valibot";
import { parseAmount } from "~/domain/money";

const ID = /^\d{1,9}$/;
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A record id as typed: its number, or null when it is not one (the service answers for a missing record). */
export const idOf = (value: string | null | undefined): number | null => (value && ID.test(value.trim()) ? Number(value.trim()) : null);

/** A text field as typed (conform reads an empty field as missing, and gives no defaults: "" below). */
const text = v.optional(v.string());
const id = v.optional(
  v.pipe(
    v.string(),
    v.transform((s: string) => idOf(s)),
  ),
);

/** Loan KYC (spec §7 kyc_submit): name is the last name, last_name the first name. */
export const KycSchema = v.pipe(
  v.object({ name: text, last_name: text, sex: text, birthday: text, country: text, mobile: text, id_card_type: text, hand_pic: text }),
  v.transform((f) => ({
    lastName: f.name ?? "",
    firstName: f.last_name ?? "",
    sex: f.sex ?? "",
    birthday: f.birthday ?? "",
    country: f.country ?? "",
    mobile: f.mobile ?? "",
    idCardType: f.id_card_type ?? "",
    handPic: f.hand_pic ?? "",
  })),
);

const applicationFields = { config_id: id, amount: text };

/** A config and an amount (spec §7 get_date: config_id, or id, and amount; /loan/submit). */
export const ApplicationSchema = v.pipe(
  v.object(applicationFields),
  v.transform((f) => ({ configId: f.config_id ?? null, amount: f.amount ?? "" })),
);

/** get_date's fields (spec §7: config_id, or `id` when there is no config_id). */
export function withConfigId(fields: URLSearchParams): URLSearchParams {
  return fields.has("config_id") ? fields : renamed(fields, "id", "config_id");
}

/** /loan/agreement's and /loan/sign's query (spec §2: id, amount): the config id is `id`. */
export const agreementQuery = (params: URLSearchParams) => renamed(params, "id", "config_id");

/** The fields with `from` read as `to` (a field already named `to` is dropped). */
function renamed(fields: URLSearchParams, from: string, to: string): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of fields) if (name !== to) out.append(name === from ? to : name, value);
  return out;
}

const signedFields = {
  ...applicationFields,
  /** A drawn signature: an upload id (PNG, purpose signature) or its URL. */
  sign: text,
  /** Without a drawing: the full name typed, matching the KYC name. */
  signature_name: text,
  /** The form's one-time id; another value counts as none (a fresh one is drawn). */
  request_id: text,
};

type SignedFields = v.InferOutput<v.ObjectSchema<typeof signedFields, undefined>>;

const applyCommand = (f: SignedFields, shown: { at: number; lang: string | undefined; terms: string } | null) => ({
  configId: f.config_id ?? null,
  amount: f.amount ?? "",
  sign: f.sign ?? "",
  signatureName: f.signature_name ?? "",
  requestId: f.request_id !== undefined && REQUEST_ID.test(f.request_id) ? f.request_id : undefined,
  shown,
});

/** Applying through the API (spec §7 loan_submit: config_id, amount, sign or signature_name, request_id; `agreement` is not trusted). */
export const LoanSubmitSchema = v.pipe(
  v.object(signedFields),
  v.transform((f) => applyCommand(f, null)),
);

/**
 * Applying on /loan/sign: the same fields, plus the agreement as the page showed it (shown_at in
 * ms, shown_lang, and terms, its digest), which must still be the agreement of these terms.
 */
export const SignSchema = v.pipe(
  v.object({ ...signedFields, shown_at: text, shown_lang: text, terms: text }),
  v.transform((f) => applyCommand(f, { at: Number(f.shown_at), lang: f.shown_lang, terms: f.terms ?? "" })),
);

/** A repayment proof (spec §7 repayment: loan_id, charge_id, proofImg). */
export const RepaySchema = v.pipe(
  v.object({ loan_id: id, charge_id: id, proofImg: text }),
  v.transform((f) => ({ loanId: f.loan_id ?? null, chargeId: f.charge_id ?? null, proofImg: f.proofImg ?? "" })),
);

/** A list page (spec §7 loan_list: page), 1 when it is not a number. */
export const PageSchema = v.pipe(
  v.object({ page: text }),
  v.transform((f) => ({ page: /^\d{1,5}$/.test(f.page ?? "1") ? Number(f.page ?? "1") : 1 })),
);

/** One loan of the user (spec §7 loan_info: id; repayment_info and /loan/agreement, /loan/repayment: loan_id). */
export const LoanIdSchema = v.pipe(
  v.object({ id }),
  v.transform((f) => ({ id: f.id ?? null })),
);
export const RepaymentLoanSchema = v.pipe(
  v.object({ loan_id: id }),
  v.transform((f) => ({ loanId: f.loan_id ?? null })),
);

/** The operator's decision on a KYC, an application or a repayment (and which terms an edit is for). */
export const DecisionSchema = v.pipe(
  v.object({
    subject: text,
    id: v.pipe(v.string("errors.bad_request"), v.regex(ID, "errors.bad_request"), v.transform(Number)),
    reason: text,
  }),
  v.transform((f) => ({ subject: f.subject ?? "", id: f.id, reason: (f.reason ?? "").slice(0, 300) })),
);

const whole = (s: string | undefined) => (s && /^\d{1,5}$/.test(s.trim()) ? Number(s.trim()) : NaN);
/** An amount with at most 2 decimals as micros, NaN when it is not one. */
const amountOrNaN = (s: string | undefined) => parseAmount(s ?? "", 2) ?? NaN;

/**
 * An edit of the terms (loan_period, free_period, min_amount, max_amount, interest_rate,
 * penalty_rate, status "0" withdrawn, else offered; a form without it withdraws): the terms as
 * numbers and rate strings, NaN where the text is not a number, for the domain's configErrors to
 * name the fields.
 */
export const ConfigSchema = v.pipe(
  v.object({
    loan_period: text,
    free_period: text,
    min_amount: text,
    max_amount: text,
    interest_rate: text,
    penalty_rate: text,
    status: text,
  }),
  v.transform((f) => ({
    loanPeriod: whole(f.loan_period),
    freePeriod: whole(f.free_period),
    minAmount: amountOrNaN(f.min_amount),
    maxAmount: amountOrNaN(f.max_amount),
    interestRate: (f.interest_rate ?? "").trim(),
    penaltyRate: (f.penalty_rate ?? "").trim(),
    status: f.status === undefined || f.status === "0" ? (0 as const) : (1 as const),
  })),
);
