/**
 * Loan rules (spec §3 Loan config / Loan, §4 Loan states, §5, §9): pure, exact integer arithmetic
 * on micro-USD amounts (no I/O, no binary floats).
 *
 * Rates are the operators' decimal strings in hundredths of a percent per day: interest_rate "5"
 * is shown as 0.05 % and means 0.0005 of the amount per day; penalty_rate "25" is 0.25 % per day.
 * At most RATE_DECIMALS decimals. Internally a rate is an integer R = rate × 10^4, so a figure is
 * amount × R / 10^8 per day, computed with BigInt.
 *
 * Rounding — one rule per figure, each rounded once, half up (amounts are positive) to the cent:
 *   - interest  = amount × rate × (loan_period − free_period), rounded half up to the cent;
 *   - daily late fee = principal × penalty_rate, rounded half up to the cent (each late day adds
 *     exactly this fee; the total is days × fee, so it never drifts with the number of days);
 *   - due = principal + interest + penalty (sums of already rounded figures: no rounding).
 * Days are UTC calendar days. The repayment date is the approval time + loan_period days; the
 * late days are the UTC days after the repayment date's day, up to and including today.
 */
import type { Micros } from "~/domain/money";
import { DAY_MS, utcDay, utcDayIndex } from "~/domain/day";

export { DAY_MS };
export const RATE_DECIMALS = 4;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
/** amount × R / 10^8: 10^4 from the rate's scale, 10^4 from "hundredths of a percent". */
const RATE_DIVISOR = RATE_SCALE * 10_000n;
const CENT: bigint = 10_000n;

/** Loan KYC states (spec §4): 0 none (no row), 1 waiting, 2 approved, 3 rejected. */
export const KycStatus = { None: 0, Waiting: 1, Approved: 2, Rejected: 3 } as const;
export type KycStatus = (typeof KycStatus)[keyof typeof KycStatus];

/** Loan states (spec §4). */
export const LoanStatus = { Review: 1, ToRepay: 2, Rejected: 3, RepaymentCheck: 4, Repaid: 5 } as const;
export type LoanStatus = (typeof LoanStatus)[keyof typeof LoanStatus];
export const LOAN_STATUS_KEYS: Record<number, string> = {
  1: "loan.status_1",
  2: "loan.status_2",
  3: "loan.status_3",
  4: "loan.status_4",
  5: "loan.status_5",
};

/** Limits of what operators may configure (they also keep every product in safe integer range). */
export const MAX_LOAN_AMOUNT: Micros = 500_000 * 1_000_000;
export const MAX_RATE = 1000n * RATE_SCALE; // 10 % per day
export const MAX_LOAN_PERIOD = 3650;

const RATE_RE = /^(\d{1,4})(?:\.(\d{1,4}))?$/;

/** A rate string as its scaled integer R (rate × 10^4), or null when it is not a valid rate. */
export function parseRate(rate: string): bigint | null {
  const m = RATE_RE.exec(rate.trim());
  if (!m) return null;
  const r = BigInt(m[1]!) * RATE_SCALE + BigInt((m[2] ?? "").padEnd(RATE_DECIMALS, "0"));
  return r <= MAX_RATE ? r : null;
}

function scaled(rate: string): bigint {
  const r = parseRate(rate);
  if (r === null) throw new RangeError(`not a rate: ${rate}`);
  return r;
}

/** Half-up division of non-negative BigInts to whole cents, back to micros (every divisor here is even). */
function toCents(numerator: bigint, divisor: bigint): Micros {
  const centDivisor = divisor * CENT;
  const cents = (numerator + centDivisor / 2n) / centDivisor;
  return Number(cents * CENT);
}

/** The rate as a percentage for display: "5" → "0.05" (rate / 100, exact). */
export function ratePercent(rate: string): string {
  const r = scaled(rate); // rate × 10^4; percent = rate / 100 = r / 10^6
  const whole = r / 1_000_000n;
  const frac = (r % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac.length < 2 ? frac.padEnd(2, "0") : frac}` : `${whole}.00`;
}

/** Interest days: the loan period less the free period (never negative). */
export function interestDays(loanPeriod: number, freePeriod: number): number {
  return Math.max(0, loanPeriod - freePeriod);
}

/** interest = amount × daily rate × (loan_period − free_period), half up to the cent. */
export function loanInterest(amount: Micros, interestRate: string, loanPeriod: number, freePeriod: number): Micros {
  return toCents(BigInt(amount) * scaled(interestRate) * BigInt(interestDays(loanPeriod, freePeriod)), RATE_DIVISOR);
}

/** One late day's fee: principal × penalty_rate, half up to the cent. */
export function dailyPenalty(principal: Micros, penaltyRate: string): Micros {
  return toCents(BigInt(principal) * scaled(penaltyRate), RATE_DIVISOR);
}

/**
 * The same rules in SQL, generated from the same constants, for the daily job that applies them
 * to every late loan in one statement (tests/integration/loan-penalties.test.ts runs it against
 * the functions above on random loans). Columns hold validated values: a rate column a string
 * parseRate accepts, a principal column whole micros (principal × R stays below 2^63: the largest
 * loan at MAX_RATE is 5 × 10^18).
 */
export function rateScaledSql(column: string): string {
  const point = `instr(${column} || '.', '.')`;
  const whole = `CAST(substr(${column}, 1, ${point} - 1) AS INTEGER)`;
  const fraction = `CAST(substr(substr(${column}, ${point} + 1) || '${"0".repeat(RATE_DECIMALS)}', 1, ${RATE_DECIMALS}) AS INTEGER)`;
  return `(${whole} * ${RATE_SCALE} + ${fraction})`;
}

/** dailyPenalty in SQL: principal × R / 10^8 micros, half up to the cent (toCents). */
export function dailyPenaltySql(principalColumn: string, rateColumn: string): string {
  const centDivisor = RATE_DIVISOR * CENT;
  return `((${principalColumn} * ${rateScaledSql(rateColumn)} + ${centDivisor / 2n}) / ${centDivisor} * ${CENT})`;
}

/** The UTC day number and date of a time: the platform's day (app/domain/day.ts). */
export { utcDay, utcDayIndex };

/** The repayment date: the approval time + loan_period days. */
export function repaymentDate(approvedAt: number, loanPeriod: number): number {
  return approvedAt + loanPeriod * DAY_MS;
}

/** Late days at `now`: the UTC days after the repayment date's day, up to and including today's. */
export function penaltyDays(dueAt: number, now: number): number {
  return Math.max(0, utcDayIndex(now) - utcDayIndex(dueAt));
}

/** The penalty accrued for a number of late days. */
export function penaltyFor(principal: Micros, penaltyRate: string, days: number): Micros {
  return dailyPenalty(principal, penaltyRate) * Math.max(0, days);
}

/** due = principal + interest + penalty. */
export function dueAmount(principal: Micros, interest: Micros, penalty: Micros): Micros {
  return principal + interest + penalty;
}

/** What dueNow reads of a loan. */
export interface LoanDueFigures {
  amount: Micros;
  interestAmount: Micros;
  penaltyAmount: Micros;
  penaltyRate: string;
  dueAt: number | null;
  status: number;
}

/**
 * What a loan owes now: the penalty the daily job accrued, or, if it has not run yet today, the
 * late days so far at one day's fee each (penaltyFor); only a loan to repay (2) is late.
 */
export function dueNow(loan: LoanDueFigures, now: number) {
  const lateDays = loan.dueAt !== null && loan.status === LoanStatus.ToRepay ? penaltyDays(loan.dueAt, now) : 0;
  const penalty = Math.max(loan.penaltyAmount, penaltyFor(loan.amount, loan.penaltyRate, lateDays));
  return {
    principal: loan.amount,
    interest: loan.interestAmount,
    penalty,
    lateDays,
    dailyPenalty: dailyPenalty(loan.amount, loan.penaltyRate),
    total: dueAmount(loan.amount, loan.interestAmount, penalty),
  };
}

export interface LoanTerms {
  loanPeriod: number;
  freePeriod: number;
  minAmount: Micros;
  maxAmount: Micros;
  interestRate: string;
  penaltyRate: string;
}

/** The summary shown before applying (spec §2 /loan/submit). */
export function loanSummary(terms: LoanTerms, amount: Micros, now: number) {
  const interest = loanInterest(amount, terms.interestRate, terms.loanPeriod, terms.freePeriod);
  return {
    amount,
    interest,
    dailyPenalty: dailyPenalty(amount, terms.penaltyRate),
    repaymentDate: repaymentDate(now, terms.loanPeriod),
    totalDue: dueAmount(amount, interest, 0),
  };
}

/** Whether an amount is within a config's bounds (inclusive). */
export function amountInBounds(amount: Micros, terms: Pick<LoanTerms, "minAmount" | "maxAmount">): boolean {
  return amount >= terms.minAmount && amount <= terms.maxAmount;
}

/** Checks operator-edited terms; the error keys of what is wrong (empty when all is well). */
export function configErrors(terms: LoanTerms): Partial<Record<keyof LoanTerms, string>> {
  const errors: Partial<Record<keyof LoanTerms, string>> = {};
  if (!Number.isInteger(terms.loanPeriod) || terms.loanPeriod < 1 || terms.loanPeriod > MAX_LOAN_PERIOD)
    errors.loanPeriod = "loan.config_period_invalid";
  if (!Number.isInteger(terms.freePeriod) || terms.freePeriod < 0 || terms.freePeriod > terms.loanPeriod)
    errors.freePeriod = "loan.config_free_invalid";
  if (!(terms.minAmount > 0)) errors.minAmount = "loan.config_amount_invalid";
  if (!(terms.maxAmount >= terms.minAmount) || terms.maxAmount > MAX_LOAN_AMOUNT) errors.maxAmount = "loan.config_max_invalid";
  if (parseRate(terms.interestRate) === null) errors.interestRate = "loan.config_rate_invalid";
  if (parseRate(terms.penaltyRate) === null) errors.penaltyRate = "loan.config_rate_invalid";
  return errors;
}

const BIRTHDAY_RE = /^(\d{4})[/-](\d{2})[/-](\d{2})$/;
export const MIN_BIRTHDAY = "1950/01/01";

/**
 * A birthday typed as YYYY/MM/DD (or YYYY-MM-DD from a date input), normalised to YYYY/MM/DD;
 * "loan.birthday_invalid" for a date that does not exist, "loan.birthday_range" outside
 * 1950/01/01 … today (UTC).
 */
export function checkBirthday(input: string, now: number): { ok: true; value: string } | { ok: false; error: string } {
  const m = BIRTHDAY_RE.exec(input.trim());
  if (!m) return { ok: false, error: "loan.birthday_invalid" };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return { ok: false, error: "loan.birthday_invalid" };
  const value = `${m[1]}/${m[2]}/${m[3]}`;
  const today = utcDay(now).replaceAll("-", "/");
  if (value < MIN_BIRTHDAY || value > today) return { ok: false, error: "loan.birthday_range" };
  return { ok: true, value };
}

/** Full name as typed for a signature compared with the KYC name: case, spaces and order-insensitive. */
export function signatureNameMatches(typed: string, firstName: string, lastName: string): boolean {
  const norm = (s: string) => s.normalize("NFKC").toLocaleLowerCase("en").split(/\s+/).filter(Boolean).sort().join(" ");
  const t = norm(typed);
  return t.length > 0 && t === norm(`${firstName} ${lastName}`);
}
