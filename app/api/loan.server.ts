/**
 * JSON calls of loans (spec §7 /api/loan/*): info (the loan KYC status), kyc_submit, loan_config
 * (the terms on offer), config_info (id), get_date (the summary for a config and an amount: interest,
 * repayment date, total due), loan_submit (amount, config_id, sign, agreement), loan_list (page),
 * loan_info (id), repayment_info (loan_id), repayment_accounts, repayment (charge_id, loan_id,
 * proofImg). Every call's fields go through the loan commands' schemas (app/forms/loan.ts), the
 * pages' own; money as decimal strings; the same service checks every rule as the pages do.
 * The agreement stored is the one the server renders for the figures (the `agreement` parameter
 * is not trusted); `sign` is a PNG upload id, or `signature_name` the typed full name.
 * Another user's loan id answers 404 like a missing one.
 */
import { LOAN_STATUS_KEYS, dueNow, ratePercent } from "~/domain/loan";
import { toDecimalString } from "~/domain/money";
import {
  ApplicationSchema,
  KycSchema,
  LoanIdSchema,
  LoanSubmitSchema,
  PageSchema,
  RepaySchema,
  RepaymentLoanSchema,
  withConfigId,
} from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { applyLoan, submitRepayment } from "~/services/loan/commands.server";
import { kycOf, kycStatus, submitKyc } from "~/services/loan/kyc.server";
import {
  checkApplication,
  loanConfig,
  loanConfigs,
  loanRecords,
  ownedLoan,
  repaymentAccounts,
  type LoanConfig,
  type LoanRecord,
} from "~/services/loan/queries.server";
import { actingUserOrInvalid, failure, ok, params, query, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: number) => toDecimalString(micros, 2);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toWireConfig(c: LoanConfig) {
  return {
    id: c.id,
    loan_period: c.loanPeriod,
    min_amount: money(c.minAmount),
    max_amount: money(c.maxAmount),
    interest_rate: c.interestRate,
    interest_rate_percent: ratePercent(c.interestRate),
    free_period: c.freePeriod,
    penalty_rate: c.penaltyRate,
    penalty_rate_percent: ratePercent(c.penaltyRate),
  };
}

function toWireLoan(l: LoanRecord, t: (key: string) => string, withAgreement = false) {
  return {
    id: l.id,
    amount: money(l.amount),
    loan_period: l.loanPeriod,
    interest_amount: money(l.interestAmount),
    interest_rate: l.interestRate,
    penalty_amount: money(l.penaltyAmount),
    reviewed_at: iso(l.reviewedAt),
    repayment_date: iso(l.dueAt),
    repayment_time: iso(l.repaymentTime),
    status: l.status,
    status_name: t(LOAN_STATUS_KEYS[l.status] ?? "loan.status_1"),
    reason: l.reason,
    created_at: iso(l.createdAt),
    ...(withAgreement
      ? { agreement: l.agreement, signature: l.signatureUploadId ? `/uploads/${l.signatureUploadId}` : l.signatureName }
      : {}),
  };
}

const kycSubmit: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const command = parseFields(KycSchema, q);
  if (!command.ok) return failure(ctx, command.errors);
  const result = await submitKyc(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { status: result.value.status }, "loan.kyc_submitted");
};

const loanSubmit: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const command = parseFields(LoanSubmitSchema, q);
  if (!command.ok) return failure(ctx, command.errors);
  const result = await applyLoan(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { id: result.value.id, created: result.value.created }, "loan.submitted");
};

const repayment: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const command = parseFields(RepaySchema, q);
  if (!command.ok) return failure(ctx, command.errors);
  const result = await submitRepayment(ctx, user, command.value);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, { id: result.value.id, loan_id: result.value.loanId }, "loan.repayment_sent");
};

export const loanRoutes: Routes = {
  "/api/loan/info": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const kyc = await kycOf(ctx, user.id);
      return ok(ctx, { status: kycStatus(kyc), reason: kyc?.status === 3 ? kyc.reason : "", is_demo: user.isDemo ? 1 : 0 });
    },
  },
  "/api/loan/kyc_submit": { GET: kycSubmit, POST: kycSubmit },
  "/api/loan/loan_config": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      return ok(ctx, (await loanConfigs(ctx)).map(toWireConfig));
    },
  },
  "/api/loan/config_info": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const asked = parseFields(LoanIdSchema, query(request));
      const config = await loanConfig(ctx, asked.ok ? asked.value.id : null);
      if (!config) return failure(ctx, { id: "errors.not_found" }, 404);
      return ok(ctx, toWireConfig(config));
    },
  },
  "/api/loan/get_date": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const command = parseFields(ApplicationSchema, withConfigId(query(request)));
      if (!command.ok) return failure(ctx, command.errors);
      const checked = await checkApplication(ctx, command.value);
      if (!checked.ok) return failure(ctx, checked.errors, checked.status);
      const s = checked.value.summary;
      return ok(ctx, {
        amount: money(s.amount),
        interest_amount: money(s.interest),
        repayment_date: iso(s.repaymentDate),
        total: money(s.totalDue),
        daily_penalty: money(s.dailyPenalty),
      });
    },
  },
  "/api/loan/loan_submit": { GET: loanSubmit, POST: loanSubmit },
  "/api/loan/loan_list": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const asked = parseFields(PageSchema, query(request));
      const page = await loanRecords(ctx, user.id, asked.ok ? asked.value.page : 1);
      return ok(ctx, { data: page.records.map((l) => toWireLoan(l, ctx.t)), total: page.total, last_page: page.lastPage, page: page.page });
    },
  },
  "/api/loan/loan_info": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const asked = parseFields(LoanIdSchema, query(request));
      const loan = await ownedLoan(ctx, user.id, asked.ok ? asked.value.id : null);
      if (!loan) return failure(ctx, { id: "errors.not_found" }, 404);
      return ok(ctx, toWireLoan(loan, ctx.t, true));
    },
  },
  "/api/loan/repayment_info": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const asked = parseFields(RepaymentLoanSchema, query(request));
      const loan = await ownedLoan(ctx, user.id, asked.ok ? asked.value.loanId : null);
      if (!loan) return failure(ctx, { loan_id: "errors.not_found" }, 404);
      const due = dueNow(loan, Date.now());
      return ok(ctx, {
        id: loan.id,
        status: loan.status,
        amount: money(due.principal),
        interest_amount: money(due.interest),
        penalty_amount: money(due.penalty),
        late_days: due.lateDays,
        daily_penalty: money(due.dailyPenalty),
        total: money(due.total),
        repayment_date: iso(loan.dueAt),
      });
    },
  },
  "/api/loan/repayment_accounts": {
    GET: async (_request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      return ok(
        ctx,
        (await repaymentAccounts(ctx)).map((c) => ({
          id: c.id,
          currency_code: c.currencyCode,
          protocol_code: c.protocolCode,
          address: c.address,
          usd_price: c.usdPrice,
        })),
      );
    },
  },
  "/api/loan/repayment": { GET: repayment, POST: repayment },
};
