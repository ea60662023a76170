/**
 * Real-name verification (issue 10 §4, spec §2 /mine/auth, §3 Auth info, §4): one row per user in
 * identity_verifications (no row = review_status 0), and the operator's review of it.
 *
 * - A submission writes the row in ONE statement that only succeeds when there is no row yet or
 *   the last one was rejected (INSERT … ON CONFLICT DO UPDATE … WHERE review_status = 3): of two
 *   concurrent submits one wins, the other changes nothing and is told so. A resubmission counts
 *   `submission` up: it is the step of the operator decision that answers it.
 * - The photos must be stored identity uploads of the same user (ownedUpload): someone else's
 *   upload id, a refused or missing one, or a deposit proof is refused and nothing is written.
 * - An operator's decision is one batch: the decision row first (UNIQUE (subject, subject_id,
 *   step): exactly one decision per submission, whatever the concurrency), then the status change
 *   conditional on the same submission still waiting, then a guard that aborts the batch if that
 *   change matched nothing. No money moves, so no step-up is asked.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { columnList, joinLists, renamedColumn, type RowOf } from "~/db/columns";
import { identityVerifications, users } from "~/db/schema";
import { ReviewStatus, maskCardId } from "~/domain/real-name";
import type { RealNameInput } from "~/forms/real-name";
import { assertOperator, decisionStatement, isAlreadyDecided, type Decision } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload, uploadIdOf, uploadUrl } from "~/services/uploads.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import { upstreamReviewStatus } from "~/services/upstream/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";

export const REASON_MAX = 200;

/** The user's verification as the pages show it (submittedAt: the last submission's time). */
const IDENTITY_COLUMNS = joinLists(
  columnList(identityVerifications, ["reviewStatus", "name", "cardId", "frontUploadId", "reverseUploadId", "reason", "submission"]),
  renamedColumn(identityVerifications, "updatedAt", "submittedAt"),
  columnList(identityVerifications, ["reviewedAt"]),
);
export type IdentityRecord = RowOf<typeof IDENTITY_COLUMNS>;

/** The user's verification, or null when they never submitted (review_status 0). */
export async function identityOf(ctx: ServiceContext, userId: number): Promise<IdentityRecord | null> {
  return ctx.d1
    .prepare(
      `SELECT ${IDENTITY_COLUMNS}
         FROM identity_verifications WHERE user_id = ?1`,
    )
    .bind(userId)
    .first<IdentityRecord>();
}

/** Just the status (0 when never submitted): the user centre's row shows it. */
/** The signed-in user's review status from whichever platform holds it (ADR 024). */
export async function myReviewStatus(ctx: AppContext, userId: number): Promise<UpstreamRead<number>> {
  if (ctx.config.platform.kind === "upstream") return upstreamReviewStatus(ctx);
  return { ok: true, value: await reviewStatusOf(ctx, userId) };
}

export async function reviewStatusOf(ctx: ServiceContext, userId: number): Promise<number> {
  const row = await ctx.d1
    .prepare("SELECT review_status AS s FROM identity_verifications WHERE user_id = ?1")
    .bind(userId)
    .first<{ s: number }>();
  return row?.s ?? ReviewStatus.None;
}

/**
 * What the owner sees of their verification (spec §3 Auth info): the card number masked, the
 * photos as private URLs (served by /uploads/:id to the owner and operators only), and the
 * reason of a rejection.
 */
export async function authInfo(ctx: ServiceContext, userId: number) {
  const row = await identityOf(ctx, userId);
  if (!row) return { review_status: ReviewStatus.None, name: "", card_id: "", front_pic: "", reverse_pic: "", reason: "", submission: 0 };
  return {
    review_status: row.reviewStatus,
    name: row.name,
    card_id: maskCardId(row.cardId),
    front_pic: uploadUrl(row.frontUploadId),
    reverse_pic: uploadUrl(row.reverseUploadId),
    reason: row.reviewStatus === ReviewStatus.Rejected ? row.reason : "",
    submission: row.submission,
  };
}

/** Submits (or, after a rejection, resubmits) the user's name, card number and two photos: → waiting for audit. */
export async function submitRealName(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id" | "isDemo">,
  input: RealNameInput,
  now = Date.now(),
): Promise<Outcome<{ submission: number }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const front = uploadIdOf(input.front_pic);
  const reverse = uploadIdOf(input.reverse_pic);
  const errors: FieldErrors = {};
  const [frontUpload, reverseUpload] = await Promise.all([
    ownedUpload(ctx, user.id, front, "identity"),
    ownedUpload(ctx, user.id, reverse, "identity"),
  ]);
  if (!frontUpload) errors.front_pic = "identity.photo_invalid";
  if (!reverseUpload) errors.reverse_pic = "identity.photo_invalid";
  else if (front === reverse) errors.reverse_pic = "identity.photos_same";
  if (Object.keys(errors).length > 0) return fail(errors);

  const row = await ctx.d1
    .prepare(
      `INSERT INTO identity_verifications (user_id, name, card_id, front_upload_id, reverse_upload_id, review_status, submission, reason, reviewed_by, reviewed_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, 1, 1, '', NULL, NULL, ?6, ?6)
       ON CONFLICT (user_id) DO UPDATE SET
         name = excluded.name, card_id = excluded.card_id, front_upload_id = excluded.front_upload_id, reverse_upload_id = excluded.reverse_upload_id,
         review_status = 1, submission = identity_verifications.submission + 1, reason = '', reviewed_by = NULL, reviewed_at = NULL, updated_at = excluded.updated_at
       WHERE identity_verifications.review_status = 3
       RETURNING submission`,
    )
    .bind(user.id, input.name, input.card_id, front, reverse, now)
    .first<{ submission: number }>();
  if (!row) {
    const status = await reviewStatusOf(ctx, user.id);
    return fail({ form: status === ReviewStatus.Certified ? "identity.already_certified" : "identity.already_waiting" }, 409);
  }
  return { ok: true, value: { submission: row.submission } };
}

// ---- the operator's review ----

/** A request waiting for review (`iv` the verification, `u` its user). */
const PENDING_COLUMNS = joinLists(
  columnList(identityVerifications, ["userId"], "iv"),
  columnList(users, ["uid", "email", "mobile"], "u"),
  columnList(identityVerifications, ["name", "cardId", "frontUploadId", "reverseUploadId", "submission"], "iv"),
  renamedColumn(identityVerifications, "updatedAt", "submittedAt", "iv"),
);
export type PendingIdentity = RowOf<typeof PENDING_COLUMNS>;

export interface DecidedIdentity {
  id: number;
  userId: number;
  uid: string | null;
  email: string | null;
  submission: number;
  decision: Decision;
  reason: string;
  decidedAt: number;
  operator: string;
}

/** The real-name queue: requests waiting (oldest first) and the latest decisions. */
export async function identityQueue(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "role"> | null,
  limits = { pending: 50, decided: 20 },
) {
  assertOperator(operator);
  const [pending, decided] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${PENDING_COLUMNS}
           FROM identity_verifications iv JOIN users u ON u.id = iv.user_id
          WHERE iv.review_status = 1
          ORDER BY iv.updated_at ASC, iv.user_id ASC
          LIMIT ?1`,
      )
      .bind(limits.pending),
    ctx.d1
      .prepare(
        `SELECT d.id, CAST(d.subject_id AS INTEGER) AS userId, u.uid, u.email, d.step AS submission, d.decision, d.reason, d.created_at AS decidedAt,
                COALESCE(op.email, op.uid) AS operator
           FROM operator_decisions d
           JOIN users op ON op.id = d.operator_id
           LEFT JOIN users u ON u.id = CAST(d.subject_id AS INTEGER)
          WHERE d.subject = 'identity'
          ORDER BY d.id DESC
          LIMIT ?1`,
      )
      .bind(limits.decided),
  ]);
  return { pending: (pending!.results ?? []) as PendingIdentity[], decided: (decided!.results ?? []) as DecidedIdentity[] };
}

/** A rejection's reason (required) or an approval's note (optional), as stored. */
export function reasonProblem(reason: string, decision: Decision): string | null {
  if (decision === "reject" && reason === "") return "admin.reason_required";
  if ([...reason].length > REASON_MAX) return "errors.too_long";
  if (/[\u0000-\u001f\u007f]/u.test(reason)) return "errors.invalid_characters";
  return null;
}

/**
 * Approves (→ 2 certified) or rejects (→ 3, with the reason shown to the user) one submission.
 * Exactly one decision per submission: a second one, concurrent or late, is "already decided".
 */
export async function decideIdentity(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  input: { userId: number; submission: number; decision: Decision; reason?: string },
  now = Date.now(),
): Promise<Outcome<{ decision: Decision }>> {
  assertOperator(operator);
  const reason = (input.reason ?? "").normalize("NFC").trim();
  const problem = reasonProblem(reason, input.decision);
  if (problem) return fail({ reason: problem });
  if (!Number.isSafeInteger(input.userId) || !Number.isSafeInteger(input.submission) || input.submission < 1)
    return fail({ form: "errors.not_found" }, 404);

  const current = await ctx.d1
    .prepare("SELECT review_status AS status, submission FROM identity_verifications WHERE user_id = ?1")
    .bind(input.userId)
    .first<{ status: number; submission: number }>();
  if (!current || input.submission > current.submission) return fail({ form: "errors.not_found" }, 404);
  if (current.status !== ReviewStatus.Waiting || input.submission !== current.submission)
    return fail({ form: "admin.already_decided" }, 409);

  const status = input.decision === "approve" ? ReviewStatus.Certified : ReviewStatus.Rejected;
  try {
    await ctx.d1.batch([
      decisionStatement(
        ctx.d1,
        { operatorId: operator.id, subject: "identity", subjectId: input.userId, step: input.submission, decision: input.decision, reason },
        now,
      ),
      ctx.d1
        .prepare(
          `UPDATE identity_verifications SET review_status = ?1, reason = ?2, reviewed_by = ?3, reviewed_at = ?4
            WHERE user_id = ?5 AND review_status = 1 AND submission = ?6`,
        )
        .bind(status, input.decision === "reject" ? reason : "", operator.id, now, input.userId, input.submission),
      // The change above must have happened, or the whole decision is undone (session_guard refuses every row).
      ctx.d1.prepare("INSERT INTO session_guard (session_id) SELECT 'identity_not_waiting' WHERE changes() = 0"),
    ]);
  } catch (error) {
    if (isAlreadyDecided(error) || (error instanceof Error && /session_valid|session_guard/.test(error.message)))
      return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { decision: input.decision } };
}
