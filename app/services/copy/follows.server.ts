/**
 * Copy trading: a follower's commands (issue 11 §1, spec §7 follow_trader, canal_follow) — follow a
 * trader, unfollow with a choice for the open copies, pause / resume, the copy stop-loss. Each takes
 * the typed command of app/forms/copy.ts (the pages and the JSON calls parse with the same schema)
 * and answers the Outcome of app/services/outcome.ts: an i18n key per field with an HTTP-ish status.
 */
import { createCookie } from "@remix-run/cloudflare";
import type { ServiceContext } from "~/context.server";
import {
  FollowStatus,
  TraderStatus,
  type CopyStopCommand,
  type FollowCommand,
  type PauseCommand,
  type UnfollowCommand,
} from "~/domain/copy";
import type { Micros } from "~/domain/money";
import { closeOrder } from "~/services/contract/commands.server";
import { AccountKind } from "~/services/ledger/accounts.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";
import type { SessionUser } from "~/services/session.server";
import { FOLLOW_COLUMNS, isUnique, liveFollow, type FollowRow } from "./queries.server";

/** Remembers that this browser's user agreed to the follow guide (/follow/submit): information, not a permission. */
export const copyGuideCookie = createCookie("bourse_copy_guide", {
  path: "/follow",
  httpOnly: true,
  secure: true,
  sameSite: "lax",
  maxAge: 365 * 24 * 3600,
});

/** The available balance of the user's contract account (micros). */
export async function contractAvailable(ctx: ServiceContext, userId: number): Promise<Micros> {
  const row = await ctx.d1
    .prepare("SELECT balance FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Contract.kind)
    .first<{ balance: number }>();
  return row?.balance ?? 0;
}

/**
 * Follows a trader (spec §7 follow_trader): multiple 1–100 (digits), a maximum follow bond in USD
 * above 0 and at most the follower's contract balance; not oneself, not an unknown or suspended
 * trader, not twice (the partial unique index holds under any concurrency), not from a demo
 * account (its simulated profit would pay the trader a real share).
 */
export async function followTrader(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id" | "isDemo">,
  command: FollowCommand,
  now = Date.now(),
): Promise<Outcome<FollowRow>> {
  // simulated money never meets a real trader's: a demo copy's profit share would be real money
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const { traderId, multiple, maxAmount: bond } = command;
  if (traderId === null || traderId <= 0) return fail({ trader_id: "copy.trader_unknown" }, 404);
  if (traderId === user.id) return fail({ trader_id: "copy.not_self" });
  const errors: FieldErrors = {};
  if (multiple.check !== "ok") errors.multiple = multiple.check;
  if (!bond.ok) errors.max_amount = bond.error;
  const [trader, available, existing] = await Promise.all([
    ctx.d1.prepare("SELECT status FROM traders WHERE user_id = ?1").bind(traderId).first<{ status: number }>(),
    contractAvailable(ctx, user.id),
    liveFollow(ctx, user.id, traderId),
  ]);
  if (!trader) return fail({ trader_id: "copy.trader_unknown" }, 404);
  if (trader.status !== TraderStatus.Active) return fail({ trader_id: "copy.trader_suspended" }, 409);
  if (existing) return fail({ trader_id: "copy.already_following" }, 409);
  if (bond.ok && bond.value > available) errors.max_amount = "copy.bond_above_balance";
  if (Object.keys(errors).length > 0 || !bond.ok) return fail(errors);
  try {
    const row = await ctx.d1
      .prepare(
        `INSERT INTO follows (follower_id, trader_id, multiple, max_amount, status, created_at)
         SELECT ?1, ?2, ?3, ?4, 1, ?5 WHERE EXISTS (SELECT 1 FROM traders WHERE user_id = ?2 AND status = 1)
            AND EXISTS (SELECT 1 FROM users WHERE id = ?1 AND is_demo = 0)
         RETURNING ${FOLLOW_COLUMNS}`,
      )
      .bind(user.id, traderId, multiple.multiple, bond.value, now)
      .first<FollowRow>();
    if (!row) return fail({ trader_id: "copy.trader_suspended" }, 409);
    return { ok: true, value: row };
  } catch (error) {
    if (isUnique(error, "follows")) return fail({ trader_id: "copy.already_following" }, 409);
    throw error;
  }
}

/**
 * Closes the open copies of a follow now, each at the market price (the user's manual close):
 * the engine session replaces this with its set-based batch. Answers how many closed and how
 * many could not be (market closed, prices stale): those stay open and keep their link.
 */
export async function closeFollowCopies(
  ctx: ServiceContext,
  followerId: number,
  followId: number,
): Promise<{ closed: number; failed: number }> {
  const { results } = await ctx.d1
    .prepare("SELECT id FROM contract_orders WHERE follow_id = ?1 AND user_id = ?2 AND status = 1 ORDER BY id LIMIT 500")
    .bind(followId, followerId)
    .all<{ id: number }>();
  let closed = 0;
  let failed = 0;
  for (const { id } of results) {
    const r = await closeOrder(ctx, followerId, id);
    if (r.ok || r.errors.form === "errors.order_closed") closed += 1;
    else failed += 1;
  }
  return { closed, failed };
}

/**
 * Unfollows (spec §7 canal_follow): the follow ends (no new copies), then its open copies are
 * either closed now, or let run — their origin link is cleared in the same batch, so they no
 * longer follow the trader's close (they keep follow_id: the follower's figures still count them).
 */
export async function unfollow(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id">,
  command: UnfollowCommand,
  now = Date.now(),
): Promise<Outcome<{ followId: number; closed: number; failed: number; kept: number }>> {
  const follow = command.traderId === null ? null : await liveFollow(ctx, user.id, command.traderId);
  if (!follow) return fail({ trader_id: "copy.not_following" }, 404);
  const end = ctx.d1
    .prepare("UPDATE follows SET status = 0, ended_at = ?3 WHERE id = ?1 AND follower_id = ?2 AND status <> 0")
    .bind(follow.id, user.id, now);
  const guard = ctx.d1.prepare("INSERT INTO session_guard (session_id) SELECT 'follow_not_live' WHERE changes() = 0");
  try {
    if (command.open === "keep") {
      const [, , cleared] = await ctx.d1.batch([
        end,
        guard,
        ctx.d1
          .prepare(
            "UPDATE contract_orders SET origin_id = NULL, updated_at = ?3 WHERE follow_id = ?1 AND user_id = ?2 AND status IN (0, 1)",
          )
          .bind(follow.id, user.id, now),
      ]);
      return { ok: true, value: { followId: follow.id, closed: 0, failed: 0, kept: cleared!.meta.changes ?? 0 } };
    }
    await ctx.d1.batch([end, guard]);
  } catch (error) {
    if (error instanceof Error && /session_valid|session_guard/.test(error.message)) return fail({ trader_id: "copy.not_following" }, 404);
    throw error;
  }
  const { closed, failed } = await closeFollowCopies(ctx, user.id, follow.id);
  return { ok: true, value: { followId: follow.id, closed, failed, kept: 0 } };
}

/** Pauses (no new copies; open copies still follow the trader's close) or resumes a follow, its settings kept. */
export async function setFollowPaused(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id">,
  command: PauseCommand,
): Promise<Outcome<{ status: number }>> {
  const { traderId } = command;
  if (traderId === null) return fail({ trader_id: "copy.not_following" }, 404);
  const [from, to] = command.paused ? [FollowStatus.Active, FollowStatus.Paused] : [FollowStatus.Paused, FollowStatus.Active];
  const result = await ctx.d1
    .prepare("UPDATE follows SET status = ?4 WHERE follower_id = ?1 AND trader_id = ?2 AND status = ?3")
    .bind(user.id, traderId, from, to)
    .run();
  if (result.meta.changes) return { ok: true, value: { status: to } };
  const live = await liveFollow(ctx, user.id, traderId);
  if (!live) return fail({ trader_id: "copy.not_following" }, 404);
  return { ok: true, value: { status: live.status } };
}

/** The copy stop-loss of a follow (USD, 2 decimals; empty or 0 = none). */
export async function setCopyStopLoss(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id">,
  command: CopyStopCommand,
): Promise<Outcome<{ copyStopLoss: Micros }>> {
  const { traderId, copyStopLoss: amount } = command;
  if (!amount.ok) return fail({ copy_stop_loss: amount.error });
  if (traderId === null) return fail({ trader_id: "copy.not_following" }, 404);
  const result = await ctx.d1
    .prepare("UPDATE follows SET copy_stop_loss = ?3 WHERE follower_id = ?1 AND trader_id = ?2 AND status <> 0")
    .bind(user.id, traderId, amount.value)
    .run();
  if (!result.meta.changes) return fail({ trader_id: "copy.not_following" }, 404);
  return { ok: true, value: { copyStopLoss: amount.value } };
}
