/**
 * Copy trading (issue 11): trader applications and their review, traders (suspend, profit
 * share), follows (follow, unfollow with a choice for open copies, pause / resume, copy
 * stop-loss), the statistics cache and the lists of the screens and calls.
 *
 * The copy engine (copying a trader's fills, the close cascade, profit-share payments) lives in
 * the market room and builds on these tables:
 *   - a copy is a contract_orders row with follow_type 2, origin_id = the trader's order and
 *     follow_id = the follow; UNIQUE (origin_id, user_id) guards against double copies;
 *   - a follow receives copies only while follows.status = 1 and traders.status = 1; its cap is
 *     Σ margin of its open copies (contract_orders.follow_id, status 1) + the copy's ≤ max_amount;
 *   - skipped copies are rows of copy_skips (reason: an i18n key of the copy.skip_* family);
 *   - a paid profit share is added to follows.paid_share in the paying batch;
 *   - a trader's close (by hand or by the engine) resets traders.stats_at in its own batch, so the
 *     next read of the ranking recomputes the statistics (refreshTraderStats).
 *
 * Every refusal is an i18n key per field (FieldErrors) with an HTTP-ish status, as in
 * identity.server.ts. Rows owned by a user are looked up by (id, user) together.
 */
import { createCookie } from "@remix-run/cloudflare";
import type { ServiceContext } from "~/context.server";
import {
  ApplicationStatus,
  FollowStatus,
  NICKNAME_MAX,
  STATS_TTL_MS,
  THREE_WEEKS_MS,
  TraderStatus,
  checkMultiple,
  followerReturn,
  sharePercentToDecimal,
  statsFromSums,
  type WindowSums,
} from "~/domain/copy";
import { parseAmount, type Micros } from "~/domain/money";
import { closeOrder } from "~/services/contract/commands.server";
import { ORDER_COLUMNS, withFigures } from "~/services/contract/queries.server";
import type { ContractOrder, ContractOrderRow } from "~/services/contract/views";
import { reasonProblem } from "~/services/identity.server";
import { AccountKind } from "~/services/ledger.server";
import { listInstruments, marketQuotes } from "~/services/market.server";
import { assertOperator, decisionStatement, isAlreadyDecided, type Decision } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { ownedUpload } from "~/services/uploads.server";
import { fail, type FieldErrors, type Outcome } from "~/services/outcome";

export const COPY_PAGE_SIZE = 20;

/** Remembers that this browser's user agreed to the follow guide (/follow/submit): information, not a permission. */
export const copyGuideCookie = createCookie("bourse_copy_guide", {
  path: "/follow",
  httpOnly: true,
  secure: true,
  sameSite: "lax",
  maxAge: 365 * 24 * 3600,
});

const isUnique = (error: unknown, index: string) =>
  error instanceof Error && /UNIQUE/i.test(error.message) && error.message.includes(index);
const pageOf = (page: number) => Math.max(1, Math.min(10_000, Math.floor(page) || 1));
const idOf = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : /^\d{1,15}$/.test(String(value ?? "").trim()) ? Number(String(value).trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * The public name of a new trader (and of a follower on the trader's list): their nickname, else
 * the first two letters of their e-mail and the last four digits of their UID ("ab***4821"), else
 * the last digits of their mobile, else their UID. Never the address or the number.
 */
const NICKNAME_SQL = `substr(COALESCE(NULLIF(u.nickname, ''),
    CASE WHEN u.email IS NOT NULL THEN substr(u.email, 1, 2) || '***' || substr(u.uid, -4) END,
    CASE WHEN u.mobile IS NOT NULL THEN '***' || substr(u.mobile, -4) END,
    u.uid), 1, ${NICKNAME_MAX})`;

// ---- applications ----

export interface Application {
  id: number;
  status: number;
  reason: string;
  createdAt: number;
  reviewedAt: number | null;
}

/** The user's latest application (null when they never applied). */
export async function applicationOf(ctx: ServiceContext, userId: number): Promise<Application | null> {
  return ctx.d1
    .prepare(
      "SELECT id, status, reason, created_at AS createdAt, reviewed_at AS reviewedAt FROM trader_applications WHERE user_id = ?1 ORDER BY id DESC LIMIT 1",
    )
    .bind(userId)
    .first<Application>();
}

/** Whether the user is a trader now (read from the database: a cached session may be older than an approval). */
export async function isTrader(ctx: ServiceContext, userId: number): Promise<boolean> {
  const row = await ctx.d1.prepare("SELECT is_trader AS t FROM users WHERE id = ?1").bind(userId).first<{ t: number }>();
  return row?.t === 1;
}

/** Applies to become a trader: the agreement must be ticked; demo users, traders and a user already waiting are refused. */
export async function applyTrader(
  ctx: ServiceContext,
  user: Pick<SessionUser, "id" | "isDemo">,
  input: { agree: boolean },
  now = Date.now(),
): Promise<Outcome<Application>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  if (!input.agree) return fail({ agree: "copy.agree_required" });
  try {
    const row = await ctx.d1
      .prepare(
        `INSERT INTO trader_applications (user_id, status, agreed_at, created_at)
         SELECT ?1, 0, ?2, ?2 WHERE NOT EXISTS (SELECT 1 FROM users WHERE id = ?1 AND is_trader = 1)
         RETURNING id, status, reason, created_at AS createdAt, reviewed_at AS reviewedAt`,
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

export interface PendingApplication {
  id: number;
  userId: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  createdAt: number;
  closedOrders: number;
}

export interface DecidedApplication {
  id: number;
  applicationId: number;
  uid: string | null;
  email: string | null;
  decision: Decision;
  reason: string;
  decidedAt: number;
  operator: string;
}

/** The operator's queue: applications waiting (oldest first) and the latest decisions. */
export async function applicationQueue(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "role"> | null,
  limits = { pending: 50, decided: 20 },
) {
  assertOperator(operator);
  const [pending, decided] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT a.id, a.user_id AS userId, u.uid, u.email, u.mobile, a.created_at AS createdAt,
                (SELECT COUNT(*) FROM contract_orders c WHERE c.user_id = a.user_id AND c.status = 3 AND c.follow_type = 1) AS closedOrders
           FROM trader_applications a JOIN users u ON u.id = a.user_id
          WHERE a.status = 0 ORDER BY a.id ASC LIMIT ?1`,
      )
      .bind(limits.pending),
    ctx.d1
      .prepare(
        `SELECT d.id, CAST(d.subject_id AS INTEGER) AS applicationId, u.uid, u.email, d.decision, d.reason, d.created_at AS decidedAt, COALESCE(op.email, op.uid) AS operator
           FROM operator_decisions d
           JOIN users op ON op.id = d.operator_id
           LEFT JOIN trader_applications a ON a.id = CAST(d.subject_id AS INTEGER)
           LEFT JOIN users u ON u.id = a.user_id
          WHERE d.subject = 'trader' ORDER BY d.id DESC LIMIT ?1`,
      )
      .bind(limits.decided),
  ]);
  return { pending: (pending!.results ?? []) as PendingApplication[], decided: (decided!.results ?? []) as DecidedApplication[] };
}

/**
 * Approves (→ a trader: the traders row and users.is_trader = 1 in the same batch) or rejects
 * (with the reason the applicant sees) one application. Exactly one decision per application:
 * the decision row's unique key comes first, and a guard undoes the batch when the application
 * was no longer waiting.
 */
export async function reviewApplication(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  input: { id: number; decision: Decision; reason?: string },
  now = Date.now(),
): Promise<Outcome<{ decision: Decision; userId: number }>> {
  assertOperator(operator);
  const reason = (input.reason ?? "").normalize("NFC").trim();
  const problem = reasonProblem(reason, input.decision);
  if (problem) return fail({ reason: problem });
  if (!Number.isSafeInteger(input.id) || input.id <= 0) return fail({ form: "errors.not_found" }, 404);
  const app = await ctx.d1
    .prepare("SELECT user_id AS userId, status FROM trader_applications WHERE id = ?1")
    .bind(input.id)
    .first<{ userId: number; status: number }>();
  if (!app) return fail({ form: "errors.not_found" }, 404);
  if (app.status !== ApplicationStatus.Waiting) return fail({ form: "admin.already_decided" }, 409);
  const status = input.decision === "approve" ? ApplicationStatus.Approved : ApplicationStatus.Rejected;
  const statements = [
    decisionStatement(ctx.d1, { operatorId: operator.id, subject: "trader", subjectId: input.id, decision: input.decision, reason }, now),
    ctx.d1
      .prepare("UPDATE trader_applications SET status = ?2, reason = ?3, reviewed_by = ?4, reviewed_at = ?5 WHERE id = ?1 AND status = 0")
      .bind(input.id, status, input.decision === "reject" ? reason : "", operator.id, now),
    ctx.d1.prepare("INSERT INTO session_guard (session_id) SELECT 'application_not_waiting' WHERE changes() = 0"),
  ];
  if (input.decision === "approve") {
    statements.push(
      ctx.d1
        .prepare(
          `INSERT INTO traders (user_id, nickname, approved_at) SELECT u.id, ${NICKNAME_SQL}, ?2 FROM users u WHERE u.id = ?1 ON CONFLICT (user_id) DO NOTHING`,
        )
        .bind(app.userId, now),
      ctx.d1.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(app.userId),
    );
  }
  try {
    await ctx.d1.batch(statements);
  } catch (error) {
    if (isAlreadyDecided(error) || (error instanceof Error && /session_valid|session_guard/.test(error.message)))
      return fail({ form: "admin.already_decided" }, 409);
    throw error;
  }
  return { ok: true, value: { decision: input.decision, userId: app.userId } };
}

// ---- traders (operator) ----

export interface TraderAdminRow {
  userId: number;
  uid: string;
  email: string | null;
  nickname: string;
  status: number;
  suspendedReason: string;
  profitShare: string;
  approvedAt: number;
  followNum: number;
}

export async function traderAdminList(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "role"> | null,
  limit = 100,
): Promise<TraderAdminRow[]> {
  assertOperator(operator);
  const { results } = await ctx.d1
    .prepare(
      `SELECT t.user_id AS userId, u.uid, u.email, t.nickname, t.status, t.suspended_reason AS suspendedReason, t.profit_share AS profitShare,
              t.approved_at AS approvedAt, (SELECT COUNT(*) FROM follows f WHERE f.trader_id = t.user_id AND f.status <> 0) AS followNum
         FROM traders t JOIN users u ON u.id = t.user_id ORDER BY t.approved_at DESC LIMIT ?1`,
    )
    .bind(limit)
    .all<TraderAdminRow>();
  return results;
}

/** Suspends (a reason required: followers are told why, and receive no copies) or resumes a trader. */
export async function setTraderStatus(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  input: { traderId: number; suspend: boolean; reason?: string },
): Promise<Outcome<{ status: number }>> {
  assertOperator(operator);
  const reason = (input.reason ?? "").normalize("NFC").trim();
  if (input.suspend) {
    const problem = reasonProblem(reason, "reject");
    if (problem) return fail({ reason: problem });
  }
  const status = input.suspend ? TraderStatus.Suspended : TraderStatus.Active;
  const result = await ctx.d1
    .prepare("UPDATE traders SET status = ?2, suspended_reason = ?3 WHERE user_id = ?1")
    .bind(input.traderId, status, input.suspend ? reason : "")
    .run();
  if (!result.meta.changes) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { status } };
}

/** Sets a trader's profit share, typed as a percentage 0–50 with at most 2 decimals. */
export async function setProfitShare(
  ctx: ServiceContext,
  operator: Pick<SessionUser, "id" | "role"> | null,
  input: { traderId: number; percent: string },
): Promise<Outcome<{ share: string }>> {
  assertOperator(operator);
  const share = sharePercentToDecimal(input.percent);
  if (share === null) return fail({ profit_share: "copy.share_invalid" });
  const result = await ctx.d1.prepare("UPDATE traders SET profit_share = ?2 WHERE user_id = ?1").bind(input.traderId, share).run();
  if (!result.meta.changes) return fail({ form: "errors.not_found" }, 404);
  return { ok: true, value: { share } };
}

// ---- statistics ----

export interface TraderRow {
  userId: number;
  nickname: string;
  avatar: string | null;
  status: number;
  suspendedReason: string;
  profitShare: string;
  approvedAt: number;
  threeWeekRate: number;
  threeWeekWin: number;
  threeWeekProfit: Micros;
  totalRate: number;
  totalProfit: Micros;
  totalTradeNum: number;
  statsAt: number;
  followNum: number;
}

const TRADER_COLUMNS = `t.user_id AS userId, t.nickname, t.avatar, t.status, t.suspended_reason AS suspendedReason, t.profit_share AS profitShare,
  t.approved_at AS approvedAt, t.three_week_rate AS threeWeekRate, t.three_week_win AS threeWeekWin, t.three_week_profit AS threeWeekProfit,
  t.total_rate AS totalRate, t.total_profit AS totalProfit, t.total_trade_num AS totalTradeNum, t.stats_at AS statsAt,
  (SELECT COUNT(*) FROM follows f WHERE f.trader_id = t.user_id AND f.status <> 0) AS followNum`;

/**
 * Recomputes the cached statistics of these traders from their closed own orders (follow_type 1):
 * the three weeks ending `now` and all time (app/domain/copy.ts traderStats). One read, one write
 * per trader, in two round trips whatever the number of traders.
 */
export async function refreshTraderStats(ctx: ServiceContext, traderIds: readonly number[], now = Date.now()): Promise<void> {
  const ids = [...new Set(traderIds)].filter((id) => Number.isSafeInteger(id)).slice(0, 90);
  if (ids.length === 0) return;
  const marks = ids.map((_, i) => `?${i + 3}`).join(", ");
  const { results } = await ctx.d1
    .prepare(
      `SELECT user_id AS userId,
              COALESCE(SUM(profit), 0) AS profit, COALESCE(SUM(margin), 0) AS margin, COALESCE(SUM(profit > 0), 0) AS wins, COUNT(*) AS count,
              COALESCE(SUM(CASE WHEN closed_at > ?1 THEN profit END), 0) AS wProfit, COALESCE(SUM(CASE WHEN closed_at > ?1 THEN margin END), 0) AS wMargin,
              COALESCE(SUM(CASE WHEN closed_at > ?1 THEN profit > 0 END), 0) AS wWins, COALESCE(SUM(closed_at > ?1), 0) AS wCount
         FROM contract_orders
        WHERE user_id IN (${marks}) AND status = 3 AND follow_type = 1 AND closed_at <= ?2
        GROUP BY user_id`,
    )
    .bind(now - THREE_WEEKS_MS, now, ...ids)
    .all<{
      userId: number;
      profit: number;
      margin: number;
      wins: number;
      count: number;
      wProfit: number;
      wMargin: number;
      wWins: number;
      wCount: number;
    }>();
  const byId = new Map(results.map((r) => [r.userId, r]));
  const zero: WindowSums = { profit: 0, margin: 0, wins: 0, count: 0 };
  await ctx.d1.batch(
    ids.map((id) => {
      const r = byId.get(id);
      const total = statsFromSums(r ? { profit: r.profit, margin: r.margin, wins: r.wins, count: r.count } : zero);
      const recent = statsFromSums(r ? { profit: r.wProfit, margin: r.wMargin, wins: r.wWins, count: r.wCount } : zero);
      return ctx.d1
        .prepare(
          `UPDATE traders SET three_week_rate = ?2, three_week_win = ?3, three_week_profit = ?4, total_rate = ?5, total_profit = ?6, total_trade_num = ?7, stats_at = ?8
            WHERE user_id = ?1`,
        )
        .bind(id, recent.rate, recent.win, recent.profit, total.rate, total.profit, total.count, now);
    }),
  );
}

/** Refreshes the statistics of these rows when older than STATS_TTL_MS; answers the rows as they are now. */
async function fresh(ctx: ServiceContext, rows: TraderRow[], now = Date.now()): Promise<TraderRow[]> {
  const stale = rows.filter((r) => now - r.statsAt > STATS_TTL_MS).map((r) => r.userId);
  if (stale.length === 0) return rows;
  await refreshTraderStats(ctx, stale, now);
  const marks = rows.map((_, i) => `?${i + 1}`).join(", ");
  const { results } = await ctx.d1
    .prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.user_id IN (${marks})`)
    .bind(...rows.map((r) => r.userId))
    .all<TraderRow>();
  const byId = new Map(results.map((r) => [r.userId, r]));
  return rows.map((r) => byId.get(r.userId) ?? r);
}

/** One trader (any status), with fresh statistics; null when unknown. */
export async function traderOf(ctx: ServiceContext, traderId: number): Promise<TraderRow | null> {
  if (!Number.isSafeInteger(traderId) || traderId <= 0) return null;
  const row = await ctx.d1.prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.user_id = ?1`).bind(traderId).first<TraderRow>();
  return row ? (await fresh(ctx, [row]))[0]! : null;
}

export interface Leader extends TraderRow {
  rank: number;
  /** The leverage and instrument of the trader's latest own order (the card's multiple and code). */
  multiple: number;
  code: string;
}

/** The ranking: active traders by three-week rate (then total profit), statistics refreshed when stale. */
export async function leaders(
  ctx: ServiceContext,
  page = 1,
  pageSize = COPY_PAGE_SIZE,
): Promise<{ data: Leader[]; total: number; page: number; lastPage: number }> {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.status = 1 ORDER BY t.three_week_rate DESC, t.total_profit DESC, t.user_id ASC LIMIT ?1 OFFSET ?2`,
      )
      .bind(pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM traders WHERE status = 1"),
  ]);
  const list = await fresh(ctx, (rows!.results ?? []) as TraderRow[]);
  const latest = new Map<number, { leverage: number; code: string }>();
  if (list.length > 0) {
    const reads = list.map((r) =>
      ctx.d1
        .prepare(
          "SELECT user_id AS userId, leverage, code FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 ORDER BY id DESC LIMIT 1",
        )
        .bind(r.userId),
    );
    for (const res of await ctx.d1.batch(reads)) {
      const r = (res.results?.[0] ?? null) as { userId: number; leverage: number; code: string } | null;
      if (r) latest.set(r.userId, r);
    }
  }
  // a refresh may reorder the page: rank by the figures shown
  list.sort((a, b) => b.threeWeekRate - a.threeWeekRate || b.totalProfit - a.totalProfit || a.userId - b.userId);
  const total = (count!.results[0] as { n: number }).n;
  return {
    data: list.map((r, i) => ({
      ...r,
      rank: (p - 1) * pageSize + i + 1,
      multiple: latest.get(r.userId)?.leverage ?? 0,
      code: latest.get(r.userId)?.code ?? "",
    })),
    total,
    page: p,
    lastPage: Math.max(1, Math.ceil(total / pageSize)),
  };
}

// ---- follows ----

export interface FollowRow {
  id: number;
  followerId: number;
  traderId: number;
  multiple: number;
  maxAmount: Micros;
  status: number;
  copyStopLoss: Micros;
  paidShare: Micros;
  createdAt: number;
  endedAt: number | null;
}

const FOLLOW_COLUMNS = `id, follower_id AS followerId, trader_id AS traderId, multiple, max_amount AS maxAmount, status, copy_stop_loss AS copyStopLoss,
  paid_share AS paidShare, created_at AS createdAt, ended_at AS endedAt`;

/** The follower's live (active or paused) follow of a trader, or null. */
export async function liveFollow(ctx: ServiceContext, followerId: number, traderId: number): Promise<FollowRow | null> {
  return ctx.d1
    .prepare(`SELECT ${FOLLOW_COLUMNS} FROM follows WHERE follower_id = ?1 AND trader_id = ?2 AND status <> 0`)
    .bind(followerId, traderId)
    .first<FollowRow>();
}

/** A follow of this follower by id (any status); null for another user's or a missing one. */
export async function ownFollow(ctx: ServiceContext, followerId: number, followId: number): Promise<FollowRow | null> {
  if (!Number.isSafeInteger(followId) || followId <= 0) return null;
  return ctx.d1
    .prepare(`SELECT ${FOLLOW_COLUMNS} FROM follows WHERE id = ?1 AND follower_id = ?2`)
    .bind(followId, followerId)
    .first<FollowRow>();
}

/** The available balance of the user's contract account (micros). */
async function contractAvailable(ctx: ServiceContext, userId: number): Promise<Micros> {
  const row = await ctx.d1
    .prepare("SELECT balance FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Contract.kind)
    .first<{ balance: number }>();
  return row?.balance ?? 0;
}

export interface FollowInput {
  trader_id: string | number;
  multiple?: string;
  max_amount?: string;
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
  input: FollowInput,
  now = Date.now(),
): Promise<Outcome<FollowRow>> {
  // simulated money never meets a real trader's: a demo copy's profit share would be real money
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const traderId = idOf(input.trader_id);
  if (traderId === null) return fail({ trader_id: "copy.trader_unknown" }, 404);
  if (traderId === user.id) return fail({ trader_id: "copy.not_self" });
  const errors: FieldErrors = {};
  const multiple = checkMultiple(input.multiple ?? "");
  if (multiple.check !== "ok") errors.multiple = multiple.check;
  const amountText = (input.max_amount ?? "").trim();
  const bond = amountText === "" ? null : parseAmount(amountText, 2);
  if (amountText === "") errors.max_amount = "copy.bond_required";
  // a well-formed amount too large to hold is certainly more than the balance
  else if (bond === null && /^\d+(\.\d{1,2})?$/.test(amountText)) errors.max_amount = "copy.bond_above_balance";
  else if (bond === null || bond <= 0) errors.max_amount = "copy.bond_invalid";
  const [trader, available, existing] = await Promise.all([
    ctx.d1.prepare("SELECT status FROM traders WHERE user_id = ?1").bind(traderId).first<{ status: number }>(),
    contractAvailable(ctx, user.id),
    liveFollow(ctx, user.id, traderId),
  ]);
  if (!trader) return fail({ trader_id: "copy.trader_unknown" }, 404);
  if (trader.status !== TraderStatus.Active) return fail({ trader_id: "copy.trader_suspended" }, 409);
  if (existing) return fail({ trader_id: "copy.already_following" }, 409);
  if (!errors.max_amount && bond !== null && bond > available) errors.max_amount = "copy.bond_above_balance";
  if (Object.keys(errors).length > 0) return fail(errors);
  try {
    const row = await ctx.d1
      .prepare(
        `INSERT INTO follows (follower_id, trader_id, multiple, max_amount, status, created_at)
         SELECT ?1, ?2, ?3, ?4, 1, ?5 WHERE EXISTS (SELECT 1 FROM traders WHERE user_id = ?2 AND status = 1)
            AND EXISTS (SELECT 1 FROM users WHERE id = ?1 AND is_demo = 0)
         RETURNING ${FOLLOW_COLUMNS}`,
      )
      .bind(user.id, traderId, multiple.multiple, bond, now)
      .first<FollowRow>();
    if (!row) return fail({ trader_id: "copy.trader_suspended" }, 409);
    return { ok: true, value: row };
  } catch (error) {
    if (isUnique(error, "follows")) return fail({ trader_id: "copy.already_following" }, 409);
    throw error;
  }
}

export type OpenCopies = "close" | "keep";

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
  input: { traderId: number | string; open: OpenCopies },
  now = Date.now(),
): Promise<Outcome<{ followId: number; closed: number; failed: number; kept: number }>> {
  const traderId = idOf(input.traderId);
  const follow = traderId === null ? null : await liveFollow(ctx, user.id, traderId);
  if (!follow) return fail({ trader_id: "copy.not_following" }, 404);
  const end = ctx.d1
    .prepare("UPDATE follows SET status = 0, ended_at = ?3 WHERE id = ?1 AND follower_id = ?2 AND status <> 0")
    .bind(follow.id, user.id, now);
  const guard = ctx.d1.prepare("INSERT INTO session_guard (session_id) SELECT 'follow_not_live' WHERE changes() = 0");
  try {
    if (input.open === "keep") {
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
  input: { traderId: number | string; paused: boolean },
): Promise<Outcome<{ status: number }>> {
  const traderId = idOf(input.traderId);
  if (traderId === null) return fail({ trader_id: "copy.not_following" }, 404);
  const [from, to] = input.paused ? [FollowStatus.Active, FollowStatus.Paused] : [FollowStatus.Paused, FollowStatus.Active];
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
  input: { traderId: number | string; amount: string },
): Promise<Outcome<{ copyStopLoss: Micros }>> {
  const traderId = idOf(input.traderId);
  const text = input.amount.trim();
  const amount = text === "" ? 0 : parseAmount(text, 2);
  if (amount === null) return fail({ copy_stop_loss: "copy.stop_invalid" });
  if (traderId === null) return fail({ trader_id: "copy.not_following" }, 404);
  const result = await ctx.d1
    .prepare("UPDATE follows SET copy_stop_loss = ?3 WHERE follower_id = ?1 AND trader_id = ?2 AND status <> 0")
    .bind(user.id, traderId, amount)
    .run();
  if (!result.meta.changes) return fail({ trader_id: "copy.not_following" }, 404);
  return { ok: true, value: { copyStopLoss: amount } };
}

// ---- what the follower sees ----

export interface FollowCard {
  followId: number;
  traderId: number;
  nickname: string;
  avatar: string | null;
  traderStatus: number;
  suspendedReason: string;
  followNum: number;
  status: number;
  multiple: number;
  maxAmount: Micros;
  copyStopLoss: Micros;
  /** Open copies (position_num) and closed copies (total_num). */
  positionNum: number;
  totalNum: number;
  /** Σ margin of every copy (total follow amount). */
  totalAmount: Micros;
  /** Σ realised profit of the closed copies (copy profit). */
  totalProfits: Micros;
  /** Margin of the open copies (what the bond cap counts). */
  openMargin: Micros;
  skips: number;
}

/** The follower's live follows as cards (spec §3 Master list item), newest first. */
export async function followCards(ctx: ServiceContext, followerId: number): Promise<FollowCard[]> {
  const { results } = await ctx.d1
    .prepare(
      `SELECT f.id AS followId, f.trader_id AS traderId, t.nickname, t.avatar, t.status AS traderStatus, t.suspended_reason AS suspendedReason,
              (SELECT COUNT(*) FROM follows g WHERE g.trader_id = f.trader_id AND g.status <> 0) AS followNum,
              f.status, f.multiple, f.max_amount AS maxAmount, f.copy_stop_loss AS copyStopLoss,
              COALESCE(SUM(c.status = 1), 0) AS positionNum, COALESCE(SUM(c.status = 3), 0) AS totalNum,
              COALESCE(SUM(c.margin), 0) AS totalAmount, COALESCE(SUM(CASE WHEN c.status = 3 THEN c.profit END), 0) AS totalProfits,
              COALESCE(SUM(CASE WHEN c.status = 1 THEN c.margin END), 0) AS openMargin,
              (SELECT COUNT(*) FROM copy_skips s WHERE s.follow_id = f.id) AS skips
         FROM follows f
         JOIN traders t ON t.user_id = f.trader_id
         LEFT JOIN contract_orders c ON c.follow_id = f.id AND c.user_id = f.follower_id
        WHERE f.follower_id = ?1 AND f.status <> 0
        GROUP BY f.id ORDER BY f.id DESC LIMIT 100`,
    )
    .bind(followerId)
    .all<FollowCard>();
  return results;
}

export interface CopySkipRow {
  id: number;
  traderOrderId: number;
  reason: string;
  createdAt: number;
}

/** The latest skipped copies of a follow of this follower. */
export async function copySkipsOf(ctx: ServiceContext, followerId: number, followId: number, limit = 20): Promise<CopySkipRow[]> {
  const { results } = await ctx.d1
    .prepare(
      "SELECT id, trader_order_id AS traderOrderId, reason, created_at AS createdAt FROM copy_skips WHERE follow_id = ?1 AND follower_id = ?2 ORDER BY id DESC LIMIT ?3",
    )
    .bind(followId, followerId, limit)
    .all<CopySkipRow>();
  return results;
}

export interface OrdersPage {
  orders: ContractOrder[];
  total: number;
  allProfit: Micros;
  page: number;
  lastPage: number;
}

async function figures(ctx: ServiceContext, rows: ContractOrderRow[]): Promise<ContractOrder[]> {
  if (rows.length === 0) return [];
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  const names = new Map(list.map((i) => [i.code, i.showCode]));
  return rows.map((r) => withFigures(r, market.quotes, names));
}

/**
 * The follower's copies (spec my_deal_follow_order): filter 1 following (open) or 3 closed; of
 * one follow (by id, owned) or of every follow of one trader, or all. Another user's follow → null.
 */
export async function followOrders(
  ctx: ServiceContext,
  followerId: number,
  input: { followId?: number; traderId?: number; status: number; page: number },
  pageSize = COPY_PAGE_SIZE,
): Promise<OrdersPage | null> {
  const p = pageOf(input.page);
  const statuses = input.status === 3 ? "3" : "1";
  let scope = "";
  const binds: (number | string)[] = [followerId];
  if (input.followId !== undefined) {
    const follow = await ownFollow(ctx, followerId, input.followId);
    if (!follow) return null;
    scope = " AND follow_id = ?2";
    binds.push(follow.id);
  } else if (input.traderId !== undefined) {
    scope = " AND follow_id IN (SELECT id FROM follows WHERE follower_id = ?1 AND trader_id = ?2)";
    binds.push(input.traderId);
  }
  const where = `user_id = ?1 AND follow_type = 2 AND status = ${statuses}${scope}`;
  const order = statuses === "3" ? "closed_at DESC, id DESC" : "id DESC";
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE ${where} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(...binds),
    ctx.d1.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(profit), 0) AS realised FROM contract_orders WHERE ${where}`).bind(...binds),
  ]);
  const orders = await figures(ctx, (rows!.results ?? []) as ContractOrderRow[]);
  const totals = count!.results[0] as { n: number; realised: number };
  const allProfit = statuses === "3" ? totals.realised : orders.reduce((s, o) => s + o.currentProfit, 0);
  return { orders, total: totals.n, allProfit, page: p, lastPage: Math.max(1, Math.ceil(totals.n / pageSize)) };
}

/** A trader's closed own orders (the detail's history), newest first. */
export async function traderClosedOrders(
  ctx: ServiceContext,
  traderId: number,
  page: number,
  pageSize = COPY_PAGE_SIZE,
): Promise<OrdersPage> {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 AND status = 3 ORDER BY closed_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(p - 1) * pageSize}`,
      )
      .bind(traderId),
    ctx.d1
      .prepare(
        "SELECT COUNT(*) AS n, COALESCE(SUM(profit), 0) AS realised FROM contract_orders WHERE user_id = ?1 AND follow_type = 1 AND status = 3",
      )
      .bind(traderId),
  ]);
  const totals = count!.results[0] as { n: number; realised: number };
  return {
    orders: await figures(ctx, (rows!.results ?? []) as ContractOrderRow[]),
    total: totals.n,
    allProfit: totals.realised,
    page: p,
    lastPage: Math.max(1, Math.ceil(totals.n / pageSize)),
  };
}

export interface TraderDetail {
  trader: TraderRow;
  follow: FollowRow | null;
}

/** The trader detail (spec: summary, is_followed): null for an unknown trader. */
export async function traderDetail(ctx: ServiceContext, viewerId: number | null, traderId: number): Promise<TraderDetail | null> {
  const trader = await traderOf(ctx, traderId);
  if (!trader) return null;
  const follow = viewerId === null ? null : await liveFollow(ctx, viewerId, traderId);
  return { trader, follow };
}

/** Active traders for the follow screens (spec §3 Trader), with whether the viewer follows each. */
export async function traderList(ctx: ServiceContext, viewerId: number | null, page = 1, pageSize = COPY_PAGE_SIZE) {
  const p = pageOf(page);
  const [rows, count] = await ctx.d1.batch([
    ctx.d1
      .prepare(`SELECT ${TRADER_COLUMNS} FROM traders t WHERE t.status = 1 ORDER BY t.total_profit DESC, t.user_id ASC LIMIT ?1 OFFSET ?2`)
      .bind(pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM traders WHERE status = 1"),
  ]);
  const list = await fresh(ctx, (rows!.results ?? []) as TraderRow[]);
  const followed = new Set<number>();
  if (viewerId !== null && list.length > 0) {
    const { results } = await ctx.d1
      .prepare("SELECT trader_id AS t FROM follows WHERE follower_id = ?1 AND status <> 0")
      .bind(viewerId)
      .all<{ t: number }>();
    for (const r of results) followed.add(r.t);
  }
  const total = (count!.results[0] as { n: number }).n;
  return {
    data: list.map((t) => ({ ...t, isFollowed: followed.has(t.userId) })),
    total,
    page: p,
    lastPage: Math.max(1, Math.ceil(total / pageSize)),
  };
}

// ---- what the trader sees ----

export interface FollowerCard {
  followId: number;
  followerId: number;
  nickname: string;
  avatar: string | null;
  status: number;
  /** Realised profit of the follower's closed copies ÷ their margin, hundredths of a percent. */
  profitability: number;
  totalProfits: Micros;
}

export interface MyFollowers {
  /**
   * Will-pay profit (issue 11): the trader's share of followers' realised profit, as the ledger
   * moved it when each copy closed with a profit (at the share in force then), micros.
   */
  willPay: Micros;
  /** Σ followers' realised copy profit. */
  totalProfits: Micros;
  /** Σ followers' open copies' current profit. */
  positionProfits: Micros;
  followNum: number;
  profitShare: string;
  /** The trader's own picture (null: the initial is shown). */
  avatar: string | null;
  data: FollowerCard[];
  total: number;
  page: number;
  lastPage: number;
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

/**
 * The trader's followers (spec my_follower): will-pay profit, total profit, follower count and a
 * page of followers. Not a trader → "copy.not_trader" (403).
 */
export async function myFollowers(
  ctx: ServiceContext,
  traderId: number,
  page = 1,
  pageSize = COPY_PAGE_SIZE,
): Promise<Outcome<MyFollowers>> {
  const trader = await ctx.d1
    .prepare("SELECT profit_share AS share, avatar FROM traders WHERE user_id = ?1")
    .bind(traderId)
    .first<{ share: string; avatar: string | null }>();
  if (!trader) return fail({ form: "copy.not_trader" }, 403);
  const p = pageOf(page);
  const [list, count, closed, open, paid] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `SELECT f.id AS followId, f.follower_id AS followerId, ${NICKNAME_SQL} AS nickname, NULL AS avatar, f.status,
                COALESCE(SUM(CASE WHEN c.status = 3 THEN c.profit END), 0) AS totalProfits, COALESCE(SUM(CASE WHEN c.status = 3 THEN c.margin END), 0) AS usedMargin
           FROM follows f JOIN users u ON u.id = f.follower_id
           LEFT JOIN contract_orders c ON c.follow_id = f.id AND c.user_id = f.follower_id
          WHERE f.trader_id = ?1 AND f.status <> 0
          GROUP BY f.id ORDER BY f.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(traderId, pageSize, (p - 1) * pageSize),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM follows WHERE trader_id = ?1 AND status <> 0").bind(traderId),
    ctx.d1
      .prepare(
        "SELECT COALESCE(SUM(profit), 0) AS total FROM contract_orders WHERE follow_id IN (SELECT id FROM follows WHERE trader_id = ?1) AND status = 3 AND follow_type = 2",
      )
      .bind(traderId),
    ctx.d1
      .prepare(
        `SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE follow_id IN (SELECT id FROM follows WHERE trader_id = ?1) AND status = 1 AND follow_type = 2 LIMIT 1000`,
      )
      .bind(traderId),
    ctx.d1.prepare("SELECT COALESCE(SUM(paid_share), 0) AS paid FROM follows WHERE trader_id = ?1").bind(traderId),
  ]);
  const totalProfits = (closed!.results[0] as { total: number }).total;
  // the shares the ledger moved as each copy closed with a profit, at the share in force then
  const paidShare = (paid!.results[0] as { paid: number }).paid;
  const openOrders = await figures(ctx, (open!.results ?? []) as ContractOrderRow[]);
  const followNum = (count!.results[0] as { n: number }).n;
  const data = ((list!.results ?? []) as (Omit<FollowerCard, "profitability"> & { usedMargin: number })[]).map(({ usedMargin, ...r }) => ({
    ...r,
    profitability: followerReturn(r.totalProfits, usedMargin),
  }));
  return {
    ok: true,
    value: {
      willPay: paidShare,
      totalProfits,
      positionProfits: openOrders.reduce((s, o) => s + o.currentProfit, 0),
      followNum,
      profitShare: trader.share,
      avatar: trader.avatar,
      data,
      total: followNum,
      page: p,
      lastPage: Math.max(1, Math.ceil(followNum / pageSize)),
    },
  };
}

/** The traders' names of copied orders (for /order's mark): follow id → nickname. */
export async function copiedFrom(ctx: ServiceContext, followIds: readonly number[]): Promise<Map<number, string>> {
  const ids = [...new Set(followIds)].filter((id) => Number.isSafeInteger(id)).slice(0, 90);
  if (ids.length === 0) return new Map();
  const { results } = await ctx.d1
    .prepare(
      `SELECT f.id, t.nickname FROM follows f JOIN traders t ON t.user_id = f.trader_id WHERE f.id IN (${ids.map((_, i) => `?${i + 1}`).join(", ")})`,
    )
    .bind(...ids)
    .all<{ id: number; nickname: string }>();
  return new Map(results.map((r) => [r.id, r.nickname]));
}
