/**
 * The loan KYC (spec §3 Loan KYC, §4 Loan KYC status, §7 /api/loan/info, kyc_submit): a user's
 * record and status, and submitting it (again after a rejection). The operator's review is in
 * operator.server.ts. Every rule is checked here, for the page and the JSON API alike, and all
 * refusals come back at once (field → i18n key); nothing is written unless all pass.
 */
import { eq } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { columnList, selectFields, type RowOf } from "~/db/columns";
import { loanKyc } from "~/db/schema";
import { KycStatus, checkBirthday } from "~/domain/loan";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { checkUpload, cleanText } from "./queries.server";

/** A user's loan KYC (spec §3 Loan KYC): its columns, for drizzle's selects and as raw SQL (`k` the KYC). */
const KYC_KEYS = [
  "userId",
  "lastName",
  "firstName",
  "sex",
  "birthday",
  "country",
  "mobile",
  "idCardType",
  "handUploadId",
  "status",
  "submission",
  "reason",
  "createdAt",
  "updatedAt",
] as const;
const KYC_COLUMNS = selectFields(loanKyc, KYC_KEYS);
export const KYC_LIST = columnList(loanKyc, KYC_KEYS, "k");
export type LoanKyc = RowOf<typeof KYC_LIST>;

export async function kycOf(ctx: ServiceContext, userId: number): Promise<LoanKyc | null> {
  const [kyc] = await ctx.db.select(KYC_COLUMNS).from(loanKyc).where(eq(loanKyc.userId, userId));
  return kyc ?? null;
}

export function kycStatus(kyc: LoanKyc | null): KycStatus {
  return (kyc?.status ?? KycStatus.None) as KycStatus;
}

/** The borrower's full name as the KYC has it. */
export const kycFullName = (k: Pick<LoanKyc, "firstName" | "lastName">) => `${k.firstName} ${k.lastName}`;

/**
 * A KYC submission as typed (app/forms/loan.ts KycSchema; the spec's name is the last name and
 * its last_name the first name): each field's text ("" when missing), checked here.
 */
export interface KycCommand {
  lastName: string;
  firstName: string;
  sex: string;
  birthday: string;
  country: string;
  mobile: string;
  idCardType: string;
  /** The photo of the user holding the document: an upload id or its URL. */
  handPic: string;
}

const TEXT_MAX = 60;
// letters, marks, spaces, apostrophes, dots and hyphens; no control or markup characters
const NAME_RE = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;
const MOBILE_RE = /^\+?[0-9 -]{5,20}$/;

/** Submits (or, after a rejection, resubmits) the loan KYC: status 1, waiting for review. */
export async function submitKyc(
  ctx: ServiceContext,
  user: SessionUser,
  command: KycCommand,
  now = Date.now(),
): Promise<Outcome<{ status: KycStatus }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const errors: FieldErrors = {};
  const lastName = cleanText(command.lastName);
  const firstName = cleanText(command.firstName);
  const country = cleanText(command.country);
  const mobile = cleanText(command.mobile);
  if (!lastName) errors.name = "loan.last_name_required";
  else if (lastName.length > TEXT_MAX || !NAME_RE.test(lastName)) errors.name = "loan.name_invalid";
  if (!firstName) errors.last_name = "loan.first_name_required";
  else if (firstName.length > TEXT_MAX || !NAME_RE.test(firstName)) errors.last_name = "loan.name_invalid";
  if (command.sex !== "1" && command.sex !== "2") errors.sex = "loan.sex_required";
  const birthday = command.birthday.trim()
    ? checkBirthday(command.birthday, now)
    : ({ ok: false, error: "loan.birthday_required" } as const);
  if (!birthday.ok) errors.birthday = birthday.error;
  if (!country) errors.country = "loan.country_required";
  else if (country.length > TEXT_MAX || !NAME_RE.test(country)) errors.country = "loan.country_invalid";
  if (!mobile) errors.mobile = "loan.mobile_required";
  else if (!MOBILE_RE.test(mobile)) errors.mobile = "loan.mobile_invalid";
  if (command.idCardType !== "1" && command.idCardType !== "2") errors.id_card_type = "loan.id_type_required";
  const photo = await checkUpload(ctx, user.id, command.handPic, ["identity", "other"], "loan.hand_pic_required", "loan.hand_pic_invalid");
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
    .bind(user.id, lastName, firstName, Number(command.sex), birthday.value, country, mobile, Number(command.idCardType), photo.id, now)
    .first<{ status: number }>();
  if (!row) return fail({ form: "loan.kyc_already" }, 409);
  return { ok: true, value: { status: KycStatus.Waiting } };
}
