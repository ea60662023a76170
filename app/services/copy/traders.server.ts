/**
 * Copy trading: becoming a trader and the trader's profile (issue 11 §1) — the application (the
 * agreement ticked; demo users, traders and a user already waiting refused) and the trader's
 * picture, shown on the ranking, the cards and the trader's page instead of the initial.
 */
import type { ServiceContext } from "~/context.server";
import type { ApplyCommand } from "~/domain/copy";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload } from "~/services/uploads.server";
import { fail, type Outcome } from "~/services/outcome";
import { APPLICATION_COLUMNS, isUnique, type Application } from "./queries.server";

/** Applies to become a trader: the agreement must be ticked; demo users, traders and a user already waiting are refused. */
export async function applyTrader(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id" | "isDemo">,
  command: ApplyCommand,
  now = Date.now(),
): Promise<Outcome<Application>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  if (!command.agree) return fail({ agree: "copy.agree_required" });
  try {
    const row = await ctx.d1
      .prepare(
        `INSERT INTO trader_applications (user_id, status, agreed_at, created_at)
         SELECT ?1, 0, ?2, ?2 WHERE NOT EXISTS (SELECT 1 FROM users WHERE id = ?1 AND is_trader = 1)
         RETURNING ${APPLICATION_COLUMNS}`,
      )
      .bind(user.id, now)
      .first<Application>();
    if (!row) return fail({ form: "copy.already_trader" }, 409);
    return { ok: true, value: row };
  } catch (error) {
    if (isUnique(error, "trader_applications")) return fail({ form: "copy.already_waiting" }, 409);
    throw error;
  }
}

// ---- the trader's picture ----

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Where a trader's chosen picture is served (public): traders.avatar holds this URL. */
export function avatarUrl(uploadId: string) {
  return `/follow/avatar/${uploadId}`;
}

/**
 * A trader chooses their picture (an upload of the avatar purpose they own) or removes it (null):
 * it then shows on the ranking, the cards and the trader's page instead of the initial.
 */
export async function setTraderAvatar(
  ctx: ServiceContext,
  traderId: number,
  uploadId: string | null,
): Promise<Outcome<{ avatar: string | null }>> {
  if (uploadId !== null && !(await ownedUpload(ctx, traderId, uploadId, "avatar"))) return fail({ avatar: "errors.upload_required" });
  const avatar = uploadId === null ? null : avatarUrl(uploadId);
  const result = await ctx.d1.prepare("UPDATE traders SET avatar = ?2 WHERE user_id = ?1").bind(traderId, avatar).run();
  if (!result.meta.changes) return fail({ form: "copy.not_trader" }, 403);
  return { ok: true, value: { avatar } };
}

/** A trader's current picture, for /follow/avatar/:id: an avatar upload some trader has chosen, else null. */
export async function readTraderAvatar(ctx: ServiceContext, id: string) {
  if (!UPLOAD_ID.test(id)) return null;
  const row = await ctx.d1
    .prepare(
      `SELECT u.r2_key AS key, u.content_type AS contentType, u.size FROM uploads u
        WHERE u.id = ?1 AND u.status = 1 AND u.purpose = 'avatar' AND EXISTS (SELECT 1 FROM traders t WHERE t.user_id = u.user_id AND t.avatar = ?2)`,
    )
    .bind(id, avatarUrl(id))
    .first<{ key: string; contentType: string; size: number }>();
  if (!row) return null;
  const object = await ctx.env.UPLOADS.get(row.key);
  return object ? { body: object.body, contentType: row.contentType, size: row.size } : null;
}
