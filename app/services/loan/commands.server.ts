/**
 * Loans, what a user does (spec §2 /loan/sign, /loan/repayment, §7 loan_submit, repayment):
 * applying with a signed agreement and sending a repayment proof. The commands come typed from
 * app/forms/loan.ts (the page's and the JSON API's one parser); every rule is checked here and
 * all refusals come back at once (field → i18n key); nothing is written unless all pass.
 *
 * - At most one open loan (status 1, 2 or 4) per user: the partial unique index loans_open; its
 *   violation answers "loan.already_open". A per-form request_id (UNIQUE per user) makes a
 *   double-submitted application one loan.
 * - A repayment proof accrues today's late days, snapshots the due figures into loan_repayments
 *   and moves the loan to 4, in one batch.
 */
import type { ServiceContext } from "~/context.server";
import { KycStatus, LoanStatus, signatureNameMatches } from "~/domain/loan";
import { normalizeLanguage } from "~/i18n/config";
import { fixedT } from "~/i18n/i18n.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload, uploadIdOf } from "~/services/uploads.server";
import { kycFullName, kycOf, kycStatus } from "./kyc.server";
import { accrualStatements } from "./penalties.server";
import {
  AGREEMENT_VALID_MS,
  agreementDigest,
  agreementText,
  checkApplication,
  checkUpload,
  cleanText,
  ownedLoan,
  repaymentAccounts,
  type ApplicationCommand,
} from "./queries.server";

/** An application as sent (app/forms/loan.ts ApplySchema). */
export interface ApplyCommand extends ApplicationCommand {
  /** A drawn signature: an upload id (purpose signature) or its URL; "" when none. */
  sign: string;
  /** Without a drawing: the full name typed as the signature; "" when none. */
  signatureName: string;
  /** The form's one-time id (a valid one, else a fresh one is drawn). */
  requestId: string | undefined;
  /** The agreement as the web form showed it (the API sends none): when (ms), in which language, its digest. */
  shown: { at: number; lang: string | undefined; terms: string } | null;
}

/**
 * Applies for a loan (status 1): the KYC must be approved, the terms and amount valid, and a
 * signature given (a drawn PNG, or the typed full name matching the KYC name). The agreement is
 * rendered here and stored as signed. A request_id already used returns that loan.
 */
export async function applyLoan(
  ctx: ServiceContext,
  user: SessionUser,
  command: ApplyCommand,
  now = Date.now(),
): Promise<Outcome<{ id: number; created: boolean }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const kyc = await kycOf(ctx, user.id);
  if (kycStatus(kyc) !== KycStatus.Approved || !kyc) return fail({ form: "loan.kyc_needed" }, 403);
  const checked = await checkApplication(ctx, command, now);
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  let signatureUploadId: string | null = null;
  let signatureName = "";
  if (command.sign.trim()) {
    const upload = await ownedUpload(ctx, user.id, uploadIdOf(command.sign), "signature");
    if (!upload || upload.contentType !== "image/png") errors.sign = "loan.signature_invalid";
    else signatureUploadId = upload.id;
  } else if (command.signatureName.trim()) {
    signatureName = cleanText(command.signatureName);
    if (!signatureNameMatches(signatureName, kyc.firstName, kyc.lastName)) errors.signature_name = "loan.signature_name_mismatch";
  } else {
    errors.sign = "loan.please_sign";
  }
  if (!checked.ok || Object.keys(errors).length > 0) return fail(errors);
  const { config, amount, summary } = checked.value;
  // The agreement is stored exactly as it was shown: rendered again as of the moment it was shown,
  // it must give the same text, or the terms (rate, period, fees, name) changed meanwhile.
  const requestId = command.requestId ?? crypto.randomUUID();
  /** The loan this form's request id already made, if any. */
  const loanOfRequest = () =>
    ctx.d1.prepare("SELECT id FROM loans WHERE user_id = ?1 AND request_id = ?2").bind(user.id, requestId).first<{ id: number }>();
  let agreement = agreementText(ctx, checked.value, kycFullName(kyc), now);
  if (command.shown) {
    const shownAt = command.shown.at;
    const fresh = Number.isSafeInteger(shownAt) && shownAt <= now && now - shownAt <= AGREEMENT_VALID_MS;
    // in the language it was shown in (the page's language may have changed since)
    const lang = normalizeLanguage(command.shown.lang) ?? ctx.lang;
    const shownIn = lang === ctx.lang ? ctx : { lang, t: await fixedT(lang) };
    if (fresh) agreement = agreementText(shownIn, checked.value, kycFullName(kyc), shownAt);
    if (!fresh || command.shown.terms !== (await agreementDigest(agreement))) {
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

/** A repayment proof as sent (app/forms/loan.ts RepaySchema). */
export interface RepayCommand {
  loanId: number | null;
  chargeId: number | null;
  /** The transfer proof: an upload id or its URL ("" when none). */
  proofImg: string;
}

/**
 * Sends a repayment proof: the loan must be this user's and at status 2. In one batch: today's
 * late days are accrued, the due figures snapshotted into loan_repayments and the loan → 4.
 */
export async function submitRepayment(
  ctx: ServiceContext,
  user: SessionUser,
  command: RepayCommand,
  now = Date.now(),
): Promise<Outcome<{ id: number; loanId: number }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const loan = await ownedLoan(ctx, user.id, command.loanId);
  if (!loan) return fail({ form: "errors.not_found" }, 404);
  if (loan.status !== LoanStatus.ToRepay) return fail({ form: "loan.not_repayable" }, 409);
  const errors: FieldErrors = {};
  const chargeId = command.chargeId;
  const account = chargeId === null ? null : (await repaymentAccounts(ctx)).find((c) => c.id === chargeId);
  if (!account) errors.charge_id = "loan.choose_account";
  const proof = await checkUpload(
    ctx,
    user.id,
    command.proofImg,
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
