/**
 * Loans, what users and pages read (spec §2 /loan*, §3 Loan config / Loan, §7 /api/loan/*): the
 * terms on offer, a user's loans, the checked application and its agreement (text and digest),
 * and the accounts a repayment is sent to. See docs/decisions/014-loans.md; the commands are in
 * commands.server.ts, the KYC in kyc.server.ts, the operator's side in operator.server.ts.
 */
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { columnList, selectFields, type RowOf } from "~/db/columns";
import { loanConfigs as loanConfigsTable, loans } from "~/db/schema";
import { amountInBounds, loanSummary, ratePercent } from "~/domain/loan";
import { formatMoney, parseAmount, type Micros } from "~/domain/money";
import { languageInfo } from "~/i18n/config";
import { chargeCurrencies, type ChargeCurrency } from "~/services/deposit.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import { ownedUpload, uploadFieldError, uploadIdOf } from "~/services/uploads.server";

export const LOAN_PAGE_SIZE = 10;

const CONFIG_KEYS = ["id", "loanPeriod", "minAmount", "maxAmount", "interestRate", "freePeriod", "penaltyRate", "status", "sort"] as const;
const CONFIG_COLUMNS = selectFields(loanConfigsTable, CONFIG_KEYS);
/** A loan config as offered (spec §3 Loan config). */
export type LoanConfig = Pick<typeof loanConfigsTable.$inferSelect, (typeof CONFIG_KEYS)[number]>;

/** The terms on offer, in the operators' order (all of them for the operator). */
export async function loanConfigs(ctx: ServiceContext, all = false): Promise<LoanConfig[]> {
  return ctx.db
    .select(CONFIG_COLUMNS)
    .from(loanConfigsTable)
    .where(all ? undefined : eq(loanConfigsTable.status, 1))
    .orderBy(loanConfigsTable.sort, loanConfigsTable.id);
}

/** An offered config (null for a missing id, a withdrawn config, or no id). */
export async function loanConfig(ctx: ServiceContext, id: number | null): Promise<LoanConfig | null> {
  if (id === null) return null;
  const [config] = await ctx.db
    .select(CONFIG_COLUMNS)
    .from(loanConfigsTable)
    .where(and(eq(loanConfigsTable.id, id), eq(loanConfigsTable.status, 1)));
  return config ?? null;
}

/** A config and an amount as typed (app/forms/loan.ts: the id or null, the amount's text). */
export interface ApplicationCommand {
  configId: number | null;
  amount: string;
}

export interface CheckedApplication {
  config: LoanConfig;
  amount: Micros;
  summary: ReturnType<typeof loanSummary>;
}

/** Checks a config id and an amount (spec §5: loan.input_amount, within the config's bounds). */
export async function checkApplication(
  ctx: ServiceContext,
  command: ApplicationCommand,
  now = Date.now(),
): Promise<Outcome<CheckedApplication>> {
  const errors: FieldErrors = {};
  const config = await loanConfig(ctx, command.configId);
  if (!config) errors.config_id = "loan.choose_term";
  const raw = command.amount.trim();
  const amount = raw ? parseAmount(raw, 2) : null;
  if (!raw) errors.amount = "loan.input_amount";
  else if (amount === null || amount <= 0) errors.amount = "loan.amount_invalid";
  else if (config && !amountInBounds(amount, config)) errors.amount = "loan.amount_out_of_bounds";
  if (!config || amount === null || Object.keys(errors).length > 0) {
    return fail(errors, 400);
  }
  return { ok: true, value: { config, amount, summary: loanSummary(config, amount, now) } };
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

/** A shown agreement can be signed for this long; then it is read again. */
export const AGREEMENT_VALID_MS = 24 * 60 * 60_000;

/** The digest of an agreement's text (SHA-256, hex): what the signer saw is what is stored. */
export async function agreementDigest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A loan as its owner reads it (spec §3 Loan). */
/** A loan's columns as the user's pages and the operator's queue read them (`l` the loan). */
const RECORD_KEYS = [
  "id",
  "userId",
  "configId",
  "amount",
  "loanPeriod",
  "freePeriod",
  "interestRate",
  "penaltyRate",
  "interestAmount",
  "penaltyAmount",
  "status",
  "agreement",
  "signatureUploadId",
  "signatureName",
  "reason",
  "reviewedAt",
  "dueAt",
  "repaymentTime",
  "createdAt",
] as const;
export const LOAN_COLUMNS = columnList(loans, RECORD_KEYS, "l");
/** The same columns for drizzle's selects. */
const RECORD_COLUMNS = selectFields(loans, RECORD_KEYS);
export type LoanRecord = RowOf<typeof LOAN_COLUMNS>;

export interface LoanPage {
  records: LoanRecord[];
  page: number;
  lastPage: number;
  total: number;
}

export async function loanRecords(ctx: ServiceContext, userId: number, page: number): Promise<LoanPage> {
  const current = Math.max(1, Math.min(10_000, Math.floor(page) || 1));
  const [records, [counted]] = await Promise.all([
    ctx.db
      .select(RECORD_COLUMNS)
      .from(loans)
      .where(eq(loans.userId, userId))
      .orderBy(desc(loans.id))
      .limit(LOAN_PAGE_SIZE)
      .offset((current - 1) * LOAN_PAGE_SIZE),
    ctx.db.select({ n: count() }).from(loans).where(eq(loans.userId, userId)),
  ]);
  const total = counted?.n ?? 0;
  return { records, page: current, lastPage: Math.max(1, Math.ceil(total / LOAN_PAGE_SIZE)), total };
}

/** One loan of this user; another user's id (or a missing one) is null alike. */
export async function ownedLoan(ctx: ServiceContext, userId: number, id: number | null): Promise<LoanRecord | null> {
  if (id === null) return null;
  const [loan] = await ctx.db
    .select(RECORD_COLUMNS)
    .from(loans)
    .where(and(eq(loans.id, id), eq(loans.userId, userId)));
  return loan ?? null;
}

/** The user's open loan (status 1, 2 or 4), if any. */
export async function openLoanId(ctx: ServiceContext, userId: number): Promise<number | null> {
  const [row] = await ctx.db
    .select({ id: loans.id })
    .from(loans)
    .where(and(eq(loans.userId, userId), inArray(loans.status, [1, 2, 4])))
    .limit(1);
  return row?.id ?? null;
}

/** The accounts a repayment is sent to (spec §7 repayment_accounts: the deposit currencies). */
export async function repaymentAccounts(ctx: ServiceContext): Promise<ChargeCurrency[]> {
  return chargeCurrencies(ctx);
}

/** An upload of this user for one of the purposes: its id, or the field's error key. */
export async function checkUpload(
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

/** Typed text as stored: NFKC, runs of spaces as one, trimmed. */
export const cleanText = (s: string | undefined) => (s ?? "").normalize("NFKC").replace(/\s+/g, " ").trim();
