/** Feedback (/feedback): a signed-in user's messages; operators read them at /admin/feedback. */
import type { ServiceContext } from "~/context.server";
import { columnList, joinLists, type RowOf } from "~/db/columns";
import { feedback, users } from "~/db/schema";
import { hit, Limits } from "~/services/rate-limit.server";
import { assertOperator } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import type { Outcome } from "~/services/outcome";

const FEEDBACK_KEYS = ["id", "content", "contact", "status", "createdAt"] as const;
const FEEDBACK_COLUMNS = columnList(feedback, FEEDBACK_KEYS);
/** The operators' view: a message (`f`) with who wrote it (`u`). */
const ADMIN_COLUMNS = joinLists(columnList(feedback, FEEDBACK_KEYS, "f"), columnList(users, ["uid", "email"], "u"));

export type FeedbackRow = RowOf<typeof FEEDBACK_COLUMNS>;

/**
 * Stores a message. The user's hourly slot is reserved first (one statement, so a parallel burst
 * cannot pass the limit); the same text sent again within a minute (a double submit) is stored once.
 */
export async function sendFeedback(
  ctx: ServiceContext,
  user: SessionUser,
  input: { content: string; contact: string },
  now = Date.now(),
): Promise<Outcome<{ id: number | null }>> {
  if (!(await hit(ctx.d1, `feedback:${user.id}`, Limits.feedbackPerUser, now)))
    return { ok: false, errors: { form: "feedback.too_many" }, status: 429 };
  const row = await ctx.d1
    .prepare(
      `INSERT INTO feedback (user_id, content, contact, status, created_at)
       SELECT ?1, ?2, ?3, 0, ?4 WHERE NOT EXISTS (SELECT 1 FROM feedback WHERE user_id = ?1 AND content = ?2 AND created_at > ?5)
       RETURNING id`,
    )
    .bind(user.id, input.content, input.contact, now, now - 60_000)
    .first<{ id: number }>();
  return { ok: true, value: { id: row?.id ?? null } };
}

export async function myFeedback(ctx: ServiceContext, userId: number): Promise<FeedbackRow[]> {
  const rows = await ctx.d1
    .prepare(`SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 50`)
    .bind(userId)
    .all<FeedbackRow>();
  return rows.results;
}

/** One of the user's own messages; someone else's or a missing one is null alike (a 404). */
export async function myFeedbackItem(ctx: ServiceContext, userId: number, id: number): Promise<FeedbackRow | null> {
  return ctx.d1.prepare(`SELECT ${FEEDBACK_COLUMNS} FROM feedback WHERE id = ?1 AND user_id = ?2`).bind(id, userId).first<FeedbackRow>();
}

/** The operators' view: new messages first, then the latest read ones, with who wrote them. */
export async function adminFeedback(ctx: ServiceContext, operator: SessionUser | null) {
  assertOperator(operator);
  const rows = await ctx.d1
    .prepare(
      `SELECT ${ADMIN_COLUMNS}
         FROM feedback f JOIN users u ON u.id = f.user_id
        ORDER BY f.status ASC, f.created_at DESC, f.id DESC LIMIT 100`,
    )
    .all<RowOf<typeof ADMIN_COLUMNS>>();
  return rows.results;
}

/** Marks a message read (false when there is no such message). */
export async function markFeedbackRead(ctx: ServiceContext, operator: SessionUser | null, id: number): Promise<boolean> {
  assertOperator(operator);
  const found = await ctx.d1.prepare("UPDATE feedback SET status = 1 WHERE id = ?1 RETURNING id").bind(id).first();
  return Boolean(found);
}
