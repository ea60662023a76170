/**
 * Loans (issue 12 §1, spec §2 /loan*, §3 Loan KYC / config / Loan, §4, §5, §7 /api/loan/*, §9):
 * the loan KYC, the operators' loan configs, applying with a signed agreement, the record list,
 * repayment with a proof, the operator's reviews and the daily late-penalty accrual.
 * See docs/decisions/014-loans.md.
 *
 * - Every rule is checked here, for the pages and the JSON API alike; refusals come back as
 *   field → i18n key, and nothing is written unless all pass.
 * - At most one open loan (status 1, 2 or 4) per user: the partial unique index loans_open; its
 *   violation answers "loan.already_open". A per-form request_id (UNIQUE per user) makes a
 *   double-submitted application one loan.
 * - Approval credits the user's funding account from platform:loans in ONE ledger post whose
 *   guards are the decision row (once-only key per loan) and the operator's step-up, and whose
 *   effect is the status change: of any number of concurrent approvals, one credits.
 * - Repayment approval: external:deposits pays principal → platform:loans, interest →
 *   platform:loan_interest, penalty → platform:loan_penalties, with the figures snapshotted in
 *   loan_repayments when the proof was sent.
 * - Late penalties: one loan_penalty_days row per loan and late UTC day (INSERT … ON CONFLICT DO
 *   NOTHING), penalty_amount recomputed from the rows; set-based, one batch per chunk of users
 *   (the daily cron enqueues the chunks on the jobs queue). Only loans at status 2 accrue:
 *   while a repayment is under check (4) nothing accrues; if the proof is rejected the loan is back
 *   at 2 and the next accrual catches up those days too (the proof was not a payment).
 */
import type { ServiceContext } from "~/context.server";
import {
  KycStatus,
  LoanStatus,
  MAX_LOAN_AMOUNT,
  amountInBounds,
  checkBirthday,
  configErrors,
  dailyPenalty,
  dueAmount,
  loanSummary,
  penaltyDays,
  ratePercent,
  repaymentDate,
  signatureNameMatches,
  utcDay,
  type LoanTerms,
} from "~/domain/loan";
import { LOAN_PENALTY_CHUNK, chunkStartsSql, userRanges, type UserRange } from "~/domain/jobs";
import { formatMoney, parseAmount, type Micros } from "~/domain/money";
import { languageInfo, normalizeLanguage } from "~/i18n/config";
import { fixedT } from "~/i18n/i18n.server";
import { chargeCurrencies, type ChargeCurrency } from "~/services/deposit.server";
import { AccountKind, LedgerError, PlatformAccount, post, txOfKey, type Posting } from "~/services/ledger.server";
import { assertOperator, decisionStatement, isAlreadyDecided, isStepUpExpired, stepUpGuard } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload, uploadFieldError, uploadIdOf } from "~/services/uploads.server";
import { fail, type Failure, type FieldErrors, type Outcome } from "~/services/outcome";

export const LOAN_PAGE_SIZE = 10;
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;
const ID = /^\d{1,9}$/;
const TEXT_MAX = 60;

export const idOf = (value: string | null | undefined): number | null => (value && ID.test(value.trim()) ? Number(value.trim()) : null);

/* ---------------------------------------------------------------------------------------------
 * KYC
 * ------------------------------------------------------------------------------------------- */

export interface LoanKyc {
  userId: number;
  lastName: string;
  firstName: string;
  sex: number;
  birthday: string;
  country: string;
  mobile: string;
  idCardType: number;
  handUploadId: string;
  status: number;
  submission: number;
  reason: string;
  createdAt: number;
  updatedAt: number;
}

const KYC_COLUMNS = `user_id AS userId, last_name AS lastName, first_name AS firstName, sex, birthday, country, mobile,
  id_card_type AS idCardType, hand_upload_id AS handUploadId, status, submission, reason, created_at AS createdAt, updated_at AS updatedAt`;

export async function kycOf(ctx: ServiceContext, userId: number): Promise<LoanKyc | null> {
  return ctx.d1.prepare(`SELECT ${KYC_COLUMNS} FROM loan_kyc WHERE user_id = ?1`).bind(userId).first<LoanKyc>();
}

export function kycStatus(kyc: LoanKyc | null): KycStatus {
  return (kyc?.status ?? KycStatus.None) as KycStatus;
}

/** The spec's field names: name = last name, last_name = first name. */
export interface KycInput {
  name?: string;
  last_name?: string;
  sex?: string;
  birthday?: string;
  country?: string;
  mobile?: string;
  id_card_type?: string;
  hand_pic?: string;
}

const clean = (s: string | undefined) => (s ?? "").normalize("NFKC").replace(/\s+/g, " ").trim();
// letters, marks, spaces, apostrophes, dots and hyphens; no control or markup characters
const NAME_RE = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;
const MOBILE_RE = /^\+?[0-9 -]{5,20}$/;

async function checkUpload(
  ctx: ServiceContext,
  userId: number,
  value: string | undefined,
  purposes: string[],
  required: string,
  invalid: string,
): Promise<{ id: string } | { error: string }> {
  const refused = uploadFieldError(value ?? null);
  if (refused) return { error: refused };
  if (!value?.trim()) return { error: required };
  const upload = await ownedUpload(ctx, userId, uploadIdOf(value));
  if (!upload || !purposes.includes(upload.purpose)) return { error: invalid };
  return { id: upload.id };
}

/** Submits (or, after a rejection, resubmits) the loan KYC: status 1, waiting for review. */
export async function submitKyc(
  ctx: ServiceContext,
  user: SessionUser,
  input: KycInput,
  now = Date.now(),
): Promise<Outcome<{ status: KycStatus }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const errors: FieldErrors = {};
  const lastName = clean(input.name);
  const firstName = clean(input.last_name);
  const country = clean(input.country);
  const mobile = clean(input.mobile);
  if (!lastName) errors.name = "loan.last_name_required";
  else if (lastName.length > TEXT_MAX || !NAME_RE.test(lastName)) errors.name = "loan.name_invalid";
  if (!firstName) errors.last_name = "loan.first_name_required";
  else if (firstName.length > TEXT_MAX || !NAME_RE.test(firstName)) errors.last_name = "loan.name_invalid";
  if (input.sex !== "1" && input.sex !== "2") errors.sex = "loan.sex_required";
  const birthday = input.birthday?.trim() ? checkBirthday(input.birthday, now) : ({ ok: false, error: "loan.birthday_required" } as const);
  if (!birthday.ok) errors.birthday = birthday.error;
  if (!country) errors.country = "loan.country_required";
  else if (country.length > TEXT_MAX || !NAME_RE.test(country)) errors.country = "loan.country_invalid";
  if (!mobile) errors.mobile = "loan.mobile_required";
  else if (!MOBILE_RE.test(mobile)) errors.mobile = "loan.mobile_invalid";
  if (input.id_card_type !== "1" && input.id_card_type !== "2") errors.id_card_type = "loan.id_type_required";
  const photo = await checkUpload(ctx, user.id, input.hand_pic, ["identity", "other"], "loan.hand_pic_required", "loan.hand_pic_invalid");
  if ("error" in photo) errors.hand_pic = photo.error;
  if (Object.keys(errors).length > 0 || !birthday.ok || "error" in photo) return fail(errors);
  // a first submission inserts; a resubmission replaces a rejected one only (status 3 → 1)
  const row = await ctx.d1
    .prepare(
      `INSERT INTO loan_kyc (user_id, last_name, first_name, sex, birthday, country, mobile, id_card_type, hand_upload_id, status, submission, reason, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, 1, '', ?10, ?10)
       ON CONFLICT (user_id) DO UPDATE SET last_name = excluded.last_name, first_name = excluded.first_name, sex = excluded.sex,
         birthday = excluded.birthday, country = excluded.country, mobile = excluded.mobile, id_card_type = excluded.id_card_type,
         hand_upload_id = excluded.hand_upload_id, status = 1, submission = loan_kyc.submission + 1, reason = '',
         reviewed_by = NULL, reviewed_at = NULL, updated_at = excluded.updated_at
       WHERE loan_kyc.status = 3
       RETURNING status`,
    )
    .bind(user.id, lastName, firstName, Number(input.sex), birthday.value, country, mobile, Number(input.id_card_type), photo.id, now)
    .first<{ status: number }>();
  if (!row) return fail({ form: "loan.kyc_already" }, 409);
  return { ok: true, value: { status: KycStatus.Waiting } };
}

/* ---------------------------------------------------------------------------------------------
 * Configs
 * ------------------------------------------------------------------------------------------- */

export interface LoanConfig extends LoanTerms {
  id: number;
  status: number;
  sort: number;
}

const CONFIG_COLUMNS = `id, loan_period AS loanPeriod, min_amount AS minAmount, max_amount AS maxAmount, interest_rate AS interestRate,
  free_period AS freePeriod, penalty_rate AS penaltyRate, status, sort`;

/** The terms on offer, in the operators' order (all of them for the operator). */
export async function loanConfigs(ctx: ServiceContext, all = false): Promise<LoanConfig[]> {
  const { results } = await ctx.d1
    .prepare(`SELECT ${CONFIG_COLUMNS} FROM loan_configs WHERE ?1 OR status = 1 ORDER BY sort, id`)
    .bind(all ? 1 : 0)
    .all<LoanConfig>();
  return results;
}

export async function loanConfig(ctx: ServiceContext, id: number | null): Promise<LoanConfig | null> {
  if (id === null) return null;
  return ctx.d1.prepare(`SELECT ${CONFIG_COLUMNS} FROM loan_configs WHERE id = ?1 AND status = 1`).bind(id).first<LoanConfig>();
}

/* ---------------------------------------------------------------------------------------------
 * Applying
 * ------------------------------------------------------------------------------------------- */

export interface ApplicationInput {
  config_id?: string;
  amount?: string;
}

export interface CheckedApplication {
  config: LoanConfig;
  amount: Micros;
  summary: ReturnType<typeof loanSummary>;
}

/** Checks a config id and an amount (spec §5: loan.input_amount, within the config's bounds). */
export async function checkApplication(
  ctx: ServiceContext,
  input: ApplicationInput,
  now = Date.now(),
): Promise<Outcome<CheckedApplication>> {
  const errors: FieldErrors = {};
  const config = await loanConfig(ctx, idOf(input.config_id));
  if (!config) errors.config_id = "loan.choose_term";
  const raw = (input.amount ?? "").trim();
  const amount = raw ? parseAmount(raw, 2) : null;
  if (!raw) errors.amount = "loan.input_amount";
  else if (amount === null || amount <= 0) errors.amount = "loan.amount_invalid";
  else if (config && !amountInBounds(amount, config)) errors.amount = "loan.amount_out_of_bounds";
  if (!config || amount === null || Object.keys(errors).length > 0) {
    return fail(errors, 400);
  }
  return { ok: true, value: { config, amount, summary: loanSummary(config, amount, now) } };
}

/** The bounds message's arguments (the amount error shows them). */
export function boundsText(config: LoanConfig, locale: string) {
  return { min: formatMoney(config.minAmount, locale), max: formatMoney(config.maxAmount, locale) };
}

/**
 * The agreement, in the user's language, with the figures filled in: the text the user reads on
 * /loan/agreement and signs on /loan/sign; stored exactly like this with the loan.
 */
export function agreementText(ctx: Pick<ServiceContext, "t" | "lang">, app: CheckedApplication, borrower: string, now: number): string {
  const locale = languageInfo(ctx.lang).locale;
  const { config, amount, summary } = app;
  const date = (ms: number) => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(ms);
  return ctx.t("loan.agreement_text", {
    borrower,
    date: date(now),
    amount: formatMoney(amount, locale),
    period: config.loanPeriod,
    free: config.freePeriod,
    rate: ratePercent(config.interestRate),
    interest: formatMoney(summary.interest, locale),
    total: formatMoney(summary.totalDue, locale),
    penalty_rate: ratePercent(config.penaltyRate),
    penalty: formatMoney(summary.dailyPenalty, locale),
  });
}

export interface ApplyInput extends ApplicationInput {
  /** A drawn signature: an upload id (purpose signature) or its URL. */
  sign?: string;
  /** Without a drawing: the full name typed as the signature. */
  signature_name?: string;
  request_id?: string;
  /** The agreement as the signer saw it: when it was rendered (ms), in which language, and its digest (the web form sends them). */
  shown_at?: string;
  shown_lang?: string;
  terms?: string;
}

/** A shown agreement can be signed for this long; then it is read again. */
export const AGREEMENT_VALID_MS = 24 * 60 * 60_000;

/** The digest of an agreement's text (SHA-256, hex): what the signer saw is what is stored. */
export async function agreementDigest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The borrower's full name as the KYC has it. */
export const kycFullName = (k: Pick<LoanKyc, "firstName" | "lastName">) => `${k.firstName} ${k.lastName}`;

/**
 * Applies for a loan (status 1): the KYC must be approved, the terms and amount valid, and a
 * signature given (a drawn PNG, or the typed full name matching the KYC name). The agreement is
 * rendered here and stored as signed. A request_id already used returns that loan.
 */
export async function applyLoan(
  ctx: ServiceContext,
  user: SessionUser,
  input: ApplyInput,
  now = Date.now(),
): Promise<Outcome<{ id: number; created: boolean }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const kyc = await kycOf(ctx, user.id);
  if (kycStatus(kyc) !== KycStatus.Approved || !kyc) return fail({ form: "loan.kyc_needed" }, 403);
  const checked = await checkApplication(ctx, input, now);
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  let signatureUploadId: string | null = null;
  let signatureName = "";
  if (input.sign?.trim()) {
    const upload = await ownedUpload(ctx, user.id, uploadIdOf(input.sign), "signature");
    if (!upload || upload.contentType !== "image/png") errors.sign = "loan.signature_invalid";
    else signatureUploadId = upload.id;
  } else if (input.signature_name?.trim()) {
    signatureName = clean(input.signature_name);
    if (!signatureNameMatches(signatureName, kyc.firstName, kyc.lastName)) errors.signature_name = "loan.signature_name_mismatch";
  } else {
    errors.sign = "loan.please_sign";
  }
  if (!checked.ok || Object.keys(errors).length > 0) return fail(errors);
  const { config, amount, summary } = checked.value;
  // The agreement is stored exactly as it was shown: rendered again as of the moment it was shown,
  // it must give the same text, or the terms (rate, period, fees, name) changed meanwhile.
  const requestId = input.request_id && REQUEST_ID.test(input.request_id) ? input.request_id : crypto.randomUUID();
  /** The loan this form's request id already made, if any. */
  const loanOfRequest = () =>
    ctx.d1.prepare("SELECT id FROM loans WHERE user_id = ?1 AND request_id = ?2").bind(user.id, requestId).first<{ id: number }>();
  let agreement = agreementText(ctx, checked.value, kycFullName(kyc), now);
  if (input.terms !== undefined) {
    const shownAt = Number(input.shown_at);
    const fresh = Number.isSafeInteger(shownAt) && shownAt <= now && now - shownAt <= AGREEMENT_VALID_MS;
    // in the language it was shown in (the page's language may have changed since)
    const lang = normalizeLanguage(input.shown_lang) ?? ctx.lang;
    const shownIn = lang === ctx.lang ? ctx : { lang, t: await fixedT(lang) };
    if (fresh) agreement = agreementText(shownIn, checked.value, kycFullName(kyc), shownAt);
    if (!fresh || input.terms !== (await agreementDigest(agreement))) {
      // unless this very form already applied: a second send answers with that loan
      const sent = await loanOfRequest();
      return sent ? { ok: true, value: { id: sent.id, created: false } } : fail({ form: "loan.terms_changed" }, 409);
    }
  }
  try {
    const row = await ctx.d1
      .prepare(
        `INSERT INTO loans (user_id, config_id, amount, loan_period, free_period, interest_rate, penalty_rate, interest_amount, status, agreement,
                            signature_upload_id, signature_name, request_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (user_id, request_id) DO NOTHING
         RETURNING id`,
      )
      .bind(
        user.id,
        config.id,
        amount,
        config.loanPeriod,
        config.freePeriod,
        config.interestRate,
        config.penaltyRate,
        summary.interest,
        agreement,
        signatureUploadId,
        signatureName,
        requestId,
        now,
      )
      .first<{ id: number }>();
    if (row) return { ok: true, value: { id: row.id, created: true } };
  } catch (error) {
    if (error instanceof Error && /UNIQUE/i.test(error.message)) {
      // the same form sent twice at once: the first insert won, answer with it
      const same = await loanOfRequest();
      if (same) return { ok: true, value: { id: same.id, created: false } };
      return fail({ form: "loan.already_open" }, 409);
    }
    throw error;
  }
  const existing = await loanOfRequest();
  if (!existing) return fail({ form: "errors.try_again" }, 409);
  return { ok: true, value: { id: existing.id, created: false } };
}

/* ---------------------------------------------------------------------------------------------
 * Records
 * ------------------------------------------------------------------------------------------- */

export interface LoanRecord {
  id: number;
  userId: number;
  configId: number;
  amount: Micros;
  loanPeriod: number;
  freePeriod: number;
  interestRate: string;
  penaltyRate: string;
  interestAmount: Micros;
  penaltyAmount: Micros;
  status: number;
  agreement: string;
  signatureUploadId: string | null;
  signatureName: string;
  reason: string;
  reviewedAt: number | null;
  dueAt: number | null;
  repaymentTime: number | null;
  createdAt: number;
}

const LOAN_COLUMNS = `l.id, l.user_id AS userId, l.config_id AS configId, l.amount, l.loan_period AS loanPeriod, l.free_period AS freePeriod,
  l.interest_rate AS interestRate, l.penalty_rate AS penaltyRate, l.interest_amount AS interestAmount, l.penalty_amount AS penaltyAmount,
  l.status, l.agreement, l.signature_upload_id AS signatureUploadId, l.signature_name AS signatureName, l.reason,
  l.reviewed_at AS reviewedAt, l.due_at AS dueAt, l.repayment_time AS repaymentTime, l.created_at AS createdAt`;

export interface LoanPage {
  records: LoanRecord[];
  page: number;
  lastPage: number;
  total: number;
}

export async function loanRecords(ctx: ServiceContext, userId: number, page: number): Promise<LoanPage> {
  const current = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const [{ results }, count] = await Promise.all([
    ctx.d1
      .prepare(`SELECT ${LOAN_COLUMNS} FROM loans l WHERE l.user_id = ?1 ORDER BY l.id DESC LIMIT ?2 OFFSET ?3`)
      .bind(userId, LOAN_PAGE_SIZE, (current - 1) * LOAN_PAGE_SIZE)
      .all<LoanRecord>(),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM loans WHERE user_id = ?1").bind(userId).first<{ n: number }>(),
  ]);
  const total = count?.n ?? 0;
  return { records: results, page: current, lastPage: Math.max(1, Math.ceil(total / LOAN_PAGE_SIZE)), total };
}

/** One loan of this user; another user's id (or a missing one) is null alike. */
export async function ownedLoan(ctx: ServiceContext, userId: number, id: number | null): Promise<LoanRecord | null> {
  if (id === null) return null;
  return ctx.d1.prepare(`SELECT ${LOAN_COLUMNS} FROM loans l WHERE l.id = ?1 AND l.user_id = ?2`).bind(id, userId).first<LoanRecord>();
}

/** The user's open loan (status 1, 2 or 4), if any. */
export async function openLoanId(ctx: ServiceContext, userId: number): Promise<number | null> {
  const row = await ctx.d1.prepare("SELECT id FROM loans WHERE user_id = ?1 AND status IN (1, 2, 4)").bind(userId).first<{ id: number }>();
  return row?.id ?? null;
}

/** What a loan owes now (the penalty accrued by the daily job, and today's late days if it has not run yet). */
export function dueNow(
  loan: Pick<LoanRecord, "amount" | "interestAmount" | "penaltyAmount" | "penaltyRate" | "dueAt" | "status">,
  now: number,
) {
  const days = loan.dueAt !== null && loan.status === LoanStatus.ToRepay ? penaltyDays(loan.dueAt, now) : 0;
  const penalty = Math.max(loan.penaltyAmount, days * dailyPenalty(loan.amount, loan.penaltyRate));
  return {
    principal: loan.amount,
    interest: loan.interestAmount,
    penalty,
    lateDays: days,
    dailyPenalty: dailyPenalty(loan.amount, loan.penaltyRate),
    total: dueAmount(loan.amount, loan.interestAmount, penalty),
  };
}

/* ---------------------------------------------------------------------------------------------
 * Late penalties (the daily job, and before a repayment's snapshot)
 * ------------------------------------------------------------------------------------------- */

/** The scaled rate R (rate × 10^4) of a decimal text column, in SQL (exact integers; rates are validated when stored). */
const rateScaledSql = (col: string) =>
  `(CAST(substr(${col}, 1, instr(${col} || '.', '.') - 1) AS INTEGER) * 10000 + CAST(substr(substr(${col}, instr(${col} || '.', '.') + 1) || '0000', 1, 4) AS INTEGER))`;
/** One late day's fee in SQL: principal × R / 10^8 micros, half up to the cent (as dailyPenalty). */
const DAILY_FEE_SQL = `((amount * ${rateScaledSql("penalty_rate")} + 500000000000) / 1000000000000 * 10000)`;

/**
 * The accrual statements: a row per late UTC day of every loan at status 2 (or of one loan, or of
 * the loans of one range of users) up to `today`, catching up any missed day, then penalty_amount
 * recomputed from the rows. Two statements whatever the number of loans; running them twice the
 * same day changes nothing (the rows are UNIQUE per (loan, day)).
 */
export function accrualStatements(
  db: D1Database,
  now: number,
  loanId: number | null = null,
  users: UserRange = ALL_USERS,
  today = utcDay(now),
): D1PreparedStatement[] {
  const to = users.to ?? Number.MAX_SAFE_INTEGER;
  return [
    db
      .prepare(
        `WITH RECURSIVE late(loan_id, day, fee) AS (
           SELECT id, date(due_at / 1000, 'unixepoch', '+1 day'), ${DAILY_FEE_SQL}
             FROM loans
            WHERE status = 2 AND due_at IS NOT NULL AND date(due_at / 1000, 'unixepoch') < ?1 AND (?2 IS NULL OR id = ?2) AND user_id >= ?4 AND user_id < ?5
           UNION ALL
           SELECT loan_id, date(day, '+1 day'), fee FROM late WHERE day < ?1
         )
         INSERT INTO loan_penalty_days (loan_id, day, amount, created_at)
         SELECT loan_id, day, fee, ?3 FROM late WHERE true
         ON CONFLICT (loan_id, day) DO NOTHING`,
      )
      .bind(today, loanId, now, users.from, to),
    db
      .prepare(
        `UPDATE loans SET penalty_amount = (SELECT COALESCE(SUM(p.amount), 0) FROM loan_penalty_days p WHERE p.loan_id = loans.id)
          WHERE status = 2 AND due_at IS NOT NULL AND (?1 IS NULL OR id = ?1) AND user_id >= ?2 AND user_id < ?3
            AND penalty_amount <> (SELECT COALESCE(SUM(p.amount), 0) FROM loan_penalty_days p WHERE p.loan_id = loans.id)`,
      )
      .bind(loanId, users.from, to),
  ];
}

const ALL_USERS: UserRange = { from: 0, to: null };

/**
 * The "loan-penalties" job for one range of users, in one batch (the queue consumer's unit of
 * work, docs/decisions/018-scale.md): idempotent per (loan, day), so a message delivered twice, or
 * two runs at once, charge each late day once. Answers how many late-day rows it added.
 */
export async function accrueLoanPenaltiesChunk(
  ctx: Pick<ServiceContext, "d1">,
  now: number,
  runDay: string,
  users: UserRange,
): Promise<number> {
  const [inserted] = await ctx.d1.batch(accrualStatements(ctx.d1, now, null, users, runDay));
  return inserted?.meta.changes ?? 0;
}

/** The job's chunks: user id ranges holding about LOAN_PENALTY_CHUNK loans at status 2 each, read in one query. */
export async function loanPenaltyRanges(ctx: Pick<ServiceContext, "d1">, chunk = LOAN_PENALTY_CHUNK): Promise<UserRange[]> {
  const { results } = await ctx.d1
    .prepare(chunkStartsSql("SELECT user_id FROM loans WHERE status = 2 AND due_at IS NOT NULL"))
    .bind(chunk)
    .all<{ id: number }>();
  return userRanges(results.map((r) => r.id));
}

/**
 * The whole "loan-penalties" job at once, chunk after chunk in this request (tests and local use;
 * the daily cron enqueues the chunks, see jobs.server.ts). Answers how many late-day rows it added.
 */
export async function accrueLoanPenalties(ctx: Pick<ServiceContext, "d1">, now = Date.now()): Promise<number> {
  let added = 0;
  for (const range of await loanPenaltyRanges(ctx)) added += await accrueLoanPenaltiesChunk(ctx, now, utcDay(now), range);
  return added;
}

/* ---------------------------------------------------------------------------------------------
 * Repayment
 * ------------------------------------------------------------------------------------------- */

/** The accounts a repayment is sent to (spec §7 repayment_accounts: the deposit currencies). */
export async function repaymentAccounts(ctx: ServiceContext): Promise<ChargeCurrency[]> {
  return chargeCurrencies(ctx);
}

export interface RepayInput {
  loan_id?: string;
  charge_id?: string;
  proofImg?: string;
}

/**
 * Sends a repayment proof: the loan must be this user's and at status 2. In one batch: today's
 * late days are accrued, the due figures snapshotted into loan_repayments and the loan → 4.
 */
export async function submitRepayment(
  ctx: ServiceContext,
  user: SessionUser,
  input: RepayInput,
  now = Date.now(),
): Promise<Outcome<{ id: number; loanId: number }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const loan = await ownedLoan(ctx, user.id, idOf(input.loan_id));
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.ToRepay) return fail({ form: "loan.not_repayable" }, 409);
  const errors: FieldErrors = {};
  const chargeId = idOf(input.charge_id);
  const account = chargeId === null ? null : (await repaymentAccounts(ctx)).find((c) => c.id === chargeId);
  if (!account) errors.charge_id = "loan.choose_account";
  const proof = await checkUpload(
    ctx,
    user.id,
    input.proofImg,
    ["repayment_proof", "deposit_proof", "other"],
    "loan.proof_required",
    "loan.proof_invalid",
  );
  if ("error" in proof) errors.proofImg = proof.error;
  if (!account || "error" in proof || Object.keys(errors).length > 0) return fail(errors);
  const results = await ctx.d1.batch([
    ...accrualStatements(ctx.d1, now, loan.id),
    ctx.d1
      .prepare(
        `INSERT INTO loan_repayments (loan_id, user_id, charge_id, proof_upload_id, principal, interest, penalty, status, created_at)
         SELECT id, user_id, ?3, ?4, amount, interest_amount, penalty_amount, 0, ?5 FROM loans WHERE id = ?1 AND user_id = ?2 AND status = 2
         RETURNING id`,
      )
      .bind(loan.id, user.id, account.id, proof.id, now),
    ctx.d1.prepare("UPDATE loans SET status = 4, reason = '' WHERE id = ?1 AND user_id = ?2 AND status = 2").bind(loan.id, user.id),
  ]);
  const inserted = results[2]?.results?.[0] as { id: number } | undefined;
  if (!inserted) return fail({ form: "loan.not_repayable" }, 409);
  return { ok: true, value: { id: inserted.id, loanId: loan.id } };
}

/* ---------------------------------------------------------------------------------------------
 * Operator side
 * ------------------------------------------------------------------------------------------- */

export interface QueuedKyc extends LoanKyc {
  uid: string;
  email: string | null;
}

export async function pendingKyc(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedKyc[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT k.user_id AS userId, k.last_name AS lastName, k.first_name AS firstName, k.sex, k.birthday, k.country, k.mobile,
              k.id_card_type AS idCardType, k.hand_upload_id AS handUploadId, k.status, k.submission, k.reason,
              k.created_at AS createdAt, k.updated_at AS updatedAt, u.uid, u.email
         FROM loan_kyc k JOIN users u ON u.id = k.user_id WHERE k.status = 1 ORDER BY k.updated_at LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedKyc>();
  return results;
}

/** Approves (2) or rejects (3, with a reason) a waiting KYC; exactly once per submission. */
export async function decideKyc(
  ctx: ServiceContext,
  operator: SessionUser,
  userId: number,
  approve: boolean,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ userId: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!approve && !text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const kyc = await kycOf(ctx, userId);
  if (!kyc) return fail({ form: "errors.not_found" }, 404);
  if (kyc.status !== KycStatus.Waiting) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(
        ctx.d1,
        {
          operatorId: operator.id,
          subject: "loan_kyc",
          subjectId: userId,
          step: kyc.submission,
          decision: approve ? "approve" : "reject",
          reason: text,
        },
        now,
      ),
      ctx.d1
        .prepare(
          "UPDATE loan_kyc SET status = ?2, reason = ?3, reviewed_by = ?4, reviewed_at = ?5, updated_at = ?5 WHERE user_id = ?1 AND status = 1",
        )
        .bind(userId, approve ? KycStatus.Approved : KycStatus.Rejected, approve ? "" : text, operator.id, now),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { userId } };
}

export interface QueuedLoan extends LoanRecord {
  uid: string;
  email: string | null;
  borrower: string;
}

export async function pendingLoans(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedLoan[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT ${LOAN_COLUMNS}, u.uid, u.email, COALESCE(k.first_name || ' ' || k.last_name, '') AS borrower
         FROM loans l JOIN users u ON u.id = l.user_id LEFT JOIN loan_kyc k ON k.user_id = l.user_id
        WHERE l.status = 1 ORDER BY l.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedLoan>();
  return results;
}

function ledgerFailure(error: unknown): Failure {
  if (isStepUpExpired(error)) return fail({ form: "admin.step_up_expired" }, 403);
  if (isAlreadyDecided(error) || (error instanceof LedgerError && error.code === "idempotency_conflict"))
    return fail({ form: "admin.already_decided" }, 409);
  throw error;
}

/**
 * Approves a loan: one ledger post crediting the user's funding account from platform:loans,
 * guarded by the decision row and the step-up; the loan → 2 with its repayment date.
 */
export async function approveLoan(
  ctx: ServiceContext,
  operator: SessionUser,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number; transactionId: number }>> {
  assertOperator(operator);
  const loan = await ctx.d1
    .prepare("SELECT id, user_id AS userId, amount, loan_period AS loanPeriod, status FROM loans WHERE id = ?1")
    .bind(id)
    .first<{ id: number; userId: number; amount: Micros; loanPeriod: number; status: number }>();
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.Review) return fail({ form: "admin.already_decided" }, 409);
  const funding = await ctx.d1
    .prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(loan.userId, AccountKind.Funding.kind)
    .first<{ id: number }>();
  if (!funding) return fail({ form: "errors.try_again" }, 500);
  const key = `loan:${loan.id}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "loan",
      memo: `loan.memo_loan|${loan.id}`,
      userId: loan.userId,
      postings: [
        { accountId: PlatformAccount.Loans.id, amount: -loan.amount },
        { accountId: funding.id, amount: loan.amount },
      ],
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "loan", subjectId: loan.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [
        ctx.d1
          .prepare(
            `UPDATE loans SET status = 2, reviewed_by = ?2, reviewed_at = ?3, due_at = ?4, loan_tx = ${txOfKey("?5")} WHERE id = ?1 AND status = 1`,
          )
          .bind(loan.id, operator.id, now, repaymentDate(now, loan.loanPeriod), key),
      ],
    });
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: loan.id, transactionId: posted.transactionId } };
  } catch (error) {
    return ledgerFailure(error);
  }
}

/** Rejects a loan application (3) with a reason; nothing moves. */
export async function rejectLoan(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const loan = await ctx.d1.prepare("SELECT id, status FROM loans WHERE id = ?1").bind(id).first<{ id: number; status: number }>();
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.Review) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(ctx.d1, { operatorId: operator.id, subject: "loan", subjectId: id, decision: "reject", reason: text }, now),
      ctx.d1
        .prepare("UPDATE loans SET status = 3, reason = ?2, reviewed_by = ?3, reviewed_at = ?4 WHERE id = ?1 AND status = 1")
        .bind(id, text, operator.id, now),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id } };
}

export interface QueuedRepayment {
  id: number;
  loanId: number;
  userId: number;
  uid: string;
  email: string | null;
  chargeId: number;
  currencyCode: string | null;
  proofUploadId: string;
  principal: Micros;
  interest: Micros;
  penalty: Micros;
  status: number;
  createdAt: number;
}

export async function pendingRepayments(ctx: ServiceContext, operator: SessionUser, limit = 50): Promise<QueuedRepayment[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT r.id, r.loan_id AS loanId, r.user_id AS userId, u.uid, u.email, r.charge_id AS chargeId, c.currency_code AS currencyCode,
              r.proof_upload_id AS proofUploadId, r.principal, r.interest, r.penalty, r.status, r.created_at AS createdAt
         FROM loan_repayments r JOIN users u ON u.id = r.user_id LEFT JOIN charge_currencies c ON c.id = r.charge_id
        WHERE r.status = 0 ORDER BY r.id LIMIT ?1`,
    )
    .bind(limit)
    .all<QueuedRepayment>();
  return results;
}

/**
 * Approves a repayment: external:deposits pays the snapshotted principal to platform:loans, the
 * interest to platform:loan_interest and the penalty to platform:loan_penalties; the repayment → 1,
 * the loan → 5 with its repayment time. One ledger post, guarded like a loan approval.
 */
export async function approveRepayment(
  ctx: ServiceContext,
  operator: SessionUser,
  sessionId: string,
  id: number,
  now = Date.now(),
): Promise<Outcome<{ id: number; loanId: number }>> {
  assertOperator(operator);
  const r = await ctx.d1
    .prepare("SELECT id, loan_id AS loanId, user_id AS userId, principal, interest, penalty, status FROM loan_repayments WHERE id = ?1")
    .bind(id)
    .first<{ id: number; loanId: number; userId: number; principal: Micros; interest: Micros; penalty: Micros; status: number }>();
  if (!r) return fail({ form: "errors.not_found" }, 404);
  if (r.status !== 0) return fail({ form: "admin.already_decided" }, 409);
  const total = r.principal + r.interest + r.penalty;
  const postings: Posting[] = [
    { accountId: PlatformAccount.ExternalDeposits.id, amount: -total },
    { accountId: PlatformAccount.Loans.id, amount: r.principal },
  ];
  if (r.interest > 0) postings.push({ accountId: PlatformAccount.LoanInterest.id, amount: r.interest });
  if (r.penalty > 0) postings.push({ accountId: PlatformAccount.LoanPenalties.id, amount: r.penalty });
  const key = `loan_repay:${r.id}`;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "loan_repay",
      memo: `loan.memo_repay|${r.loanId}`,
      userId: r.userId,
      postings,
      guards: [
        decisionStatement(ctx.d1, { operatorId: operator.id, subject: "repayment", subjectId: r.id, decision: "approve" }, now),
        stepUpGuard(ctx.d1, sessionId, now),
      ],
      effects: [
        ctx.d1
          .prepare("UPDATE loan_repayments SET status = 1, reviewed_by = ?2, reviewed_at = ?3 WHERE id = ?1 AND status = 0")
          .bind(r.id, operator.id, now),
        ctx.d1
          .prepare(`UPDATE loans SET status = 5, repayment_time = ?2, repay_tx = ${txOfKey("?3")} WHERE id = ?1 AND status = 4`)
          .bind(r.loanId, now, key),
      ],
    });
    if (posted.replayed) return fail({ form: "admin.already_decided" }, 409);
    return { ok: true, value: { id: r.id, loanId: r.loanId } };
  } catch (error) {
    return ledgerFailure(error);
  }
}

/** Rejects a repayment proof: the repayment → 2 with the reason, the loan back to 2 (to repay) with it. */
export async function rejectRepayment(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  reason: string,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const text = reason.trim();
  if (!text) return fail({ reason: "admin.reason_required" });
  if (text.length > 200) return fail({ reason: "errors.too_long" });
  const r = await ctx.d1
    .prepare("SELECT id, loan_id AS loanId, status FROM loan_repayments WHERE id = ?1")
    .bind(id)
    .first<{ id: number; loanId: number; status: number }>();
  if (!r) return fail({ form: "errors.not_found" }, 404);
  if (r.status !== 0) return fail({ form: "admin.already_decided" }, 409);
  try {
    await ctx.d1.batch([
      decisionStatement(ctx.d1, { operatorId: operator.id, subject: "repayment", subjectId: id, decision: "reject", reason: text }, now),
      ctx.d1
        .prepare("UPDATE loan_repayments SET status = 2, reason = ?2, reviewed_by = ?3, reviewed_at = ?4 WHERE id = ?1 AND status = 0")
        .bind(id, text, operator.id, now),
      ctx.d1.prepare("UPDATE loans SET status = 2, reason = ?2 WHERE id = ?1 AND status = 4").bind(r.loanId, text),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error)) return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { id } };
}

export interface ConfigInput {
  loan_period?: string;
  free_period?: string;
  min_amount?: string;
  max_amount?: string;
  interest_rate?: string;
  penalty_rate?: string;
  status?: string;
}

/** Edits a loan config (bounds validated); existing loans keep the terms they were signed with. */
export async function updateLoanConfig(
  ctx: ServiceContext,
  operator: SessionUser,
  id: number,
  input: ConfigInput,
  now = Date.now(),
): Promise<Outcome<{ id: number }>> {
  assertOperator(operator);
  const int = (s: string | undefined) => (s && /^\d{1,5}$/.test(s.trim()) ? Number(s.trim()) : NaN);
  const terms: LoanTerms = {
    loanPeriod: int(input.loan_period),
    freePeriod: int(input.free_period),
    minAmount: parseAmount(input.min_amount ?? "", 2) ?? NaN,
    maxAmount: parseAmount(input.max_amount ?? "", 2) ?? NaN,
    interestRate: (input.interest_rate ?? "").trim(),
    penaltyRate: (input.penalty_rate ?? "").trim(),
  };
  const problems = configErrors(terms);
  const errors: FieldErrors = {};
  const names: Record<keyof LoanTerms, string> = {
    loanPeriod: "loan_period",
    freePeriod: "free_period",
    minAmount: "min_amount",
    maxAmount: "max_amount",
    interestRate: "interest_rate",
    penaltyRate: "penalty_rate",
  };
  for (const [k, v] of Object.entries(problems)) errors[names[k as keyof LoanTerms]] = v;
  if (terms.maxAmount > MAX_LOAN_AMOUNT) errors.max_amount = "loan.config_max_invalid";
  if (Object.keys(errors).length > 0) return fail(errors);
  const status = input.status === "0" ? 0 : 1;
  const changed = await ctx.d1
    .prepare(
      `UPDATE loan_configs SET loan_period = ?2, free_period = ?3, min_amount = ?4, max_amount = ?5, interest_rate = ?6, penalty_rate = ?7, status = ?8, updated_at = ?9
        WHERE id = ?1 RETURNING id`,
    )
    .bind(id, terms.loanPeriod, terms.freePeriod, terms.minAmount, terms.maxAmount, terms.interestRate, terms.penaltyRate, status, now)
    .first<{ id: number }>();
  if (!changed) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { id } };
}

/** Queue counts for the console. */
export async function loanQueueCounts(ctx: ServiceContext) {
  const row = await ctx.d1
    .prepare(
      `SELECT (SELECT COUNT(*) FROM loan_kyc WHERE status = 1) AS kyc, (SELECT COUNT(*) FROM loans WHERE status = 1) AS loans,
              (SELECT COUNT(*) FROM loan_repayments WHERE status = 0) AS repayments`,
    )
    .first<{ kyc: number; loans: number; repayments: number }>();
  return row ?? { kyc: 0, loans: 0, repayments: 0 };
}
