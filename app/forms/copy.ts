/**
 * Copy-trading commands: one valibot schema per command, parsed by the page's action and by the
 * JSON call alike (app/api/copy.server.ts maps the spec §7 parameters onto the page's field names
 * first: the `*FieldsOfCall` functions below). Each schema yields the service's typed command:
 * ids as numbers, the multiple and the amounts as the pure rules of app/domain/copy.ts checked
 * them. A follow's field refusals are carried in the command rather than failing the parse, so the
 * service still answers in its order (a demo account, an unknown trader, then every field at once).
 */
import * as v from "valibot";
import { Intent } from "~/forms/intents";
import {
  checkBond,
  checkCopyStop,
  checkMultiple,
  sharePercentToDecimal,
  type ApplyCommand,
  type CopyStopCommand,
  type FollowCommand,
  type PauseCommand,
  type ProfitShareCommand,
  type ReviewInput,
  type TraderStatusInput,
  type UnfollowCommand,
} from "~/domain/copy";

type Fields = Record<string, string | undefined>;

/** As typed (conform reads an empty field as missing). */
const typed = v.optional(v.string());
/** An id: 1–15 digits (trimmed), else null — the service answers null like an id it does not know. */
const idOrNull = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => (/^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null)),
  ),
);
/** An id the page itself wrote (a hidden field): anything else is a bad request. */
const pageId = v.pipe(v.string("errors.bad_request"), v.regex(/^\d{1,15}$/, "errors.bad_request"), v.transform(Number));
/** The API's ticked values of a checkbox. */
const ticked = (value: string | null) => ["1", "on", "true"].includes((value ?? "").trim());

// ---- a follower's commands ----

export const FollowSchema = v.pipe(
  v.object({
    trader_id: idOrNull,
    /** The multiple as typed: digits, 1–100. */
    multiple: typed,
    /** The maximum follow bond in USD as typed (at most the contract balance: the service knows it). */
    max_amount: typed,
  }),
  v.transform((f): FollowCommand => ({
    traderId: f.trader_id ?? null,
    multiple: checkMultiple(f.multiple ?? ""),
    maxAmount: checkBond(f.max_amount ?? ""),
  })),
);

export const UnfollowSchema = v.pipe(
  v.object({
    trader_id: idOrNull,
    /** What becomes of the open copies: "close" closes them now; anything else lets them run. */
    open: typed,
  }),
  v.transform((f): UnfollowCommand => ({ traderId: f.trader_id ?? null, open: f.open === "close" ? "close" : "keep" })),
);

export const PauseSchema = v.pipe(
  v.object({
    trader_id: idOrNull,
    /** "0" resumes; anything else (or nothing) pauses. */
    paused: typed,
  }),
  v.transform((f): PauseCommand => ({ traderId: f.trader_id ?? null, paused: (f.paused ?? "1") !== "0" })),
);

export const CopyStopSchema = v.pipe(
  v.object({
    trader_id: idOrNull,
    /** USD with at most 2 decimals; empty or 0 = none. */
    copy_stop_loss: typed,
  }),
  v.transform((f): CopyStopCommand => ({ traderId: f.trader_id ?? null, copyStopLoss: checkCopyStop(f.copy_stop_loss ?? "") })),
);

export const ApplySchema = v.pipe(
  v.object({
    /** The agreement checkbox ("on" when ticked). */
    agree: typed,
  }),
  v.transform((f): ApplyCommand => ({ agree: f.agree === "on" })),
);

// ---- the operator's commands (/admin/traders) ----

/** The operator's forms: the review forms post the application's `id`, the traders' forms `trader_id`; either names the row. */
export function operatorFieldsOf(form: URLSearchParams): Fields {
  return {
    id: form.get("id") ?? form.get("trader_id") ?? "",
    reason: form.get("reason") ?? "",
    profit_share: form.get("profit_share") ?? "",
  };
}

export const ReviewSchema = v.pipe(
  v.object({ id: pageId, reason: typed }, "errors.bad_request"),
  v.transform((f): ReviewInput => ({ id: f.id, reason: f.reason ?? "" })),
);

export const TraderStatusSchema = v.pipe(
  v.object({ id: pageId, reason: typed }, "errors.bad_request"),
  v.transform((f): TraderStatusInput => ({ traderId: f.id, reason: f.reason ?? "" })),
);

export const ProfitShareSchema = v.pipe(
  v.object({
    id: pageId,
    /** A percentage 0–50 with at most 2 decimals ("12.5"), stored as the decimal "0.125". */
    profit_share: v.pipe(
      v.string("copy.share_invalid"),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const share = sharePercentToDecimal(dataset.value);
        if (share === null) {
          addIssue({ message: "copy.share_invalid" });
          return NEVER;
        }
        return share;
      }),
    ),
  }),
  v.transform((f): ProfitShareCommand => ({ traderId: f.id, share: f.profit_share })),
);

/** The trader's picture (my-follower): choose one (the upload's id, or its refusal "!key") or remove it. */
export const AvatarSchema = v.object({
  intent: v.picklist([Intent.SetAvatar, Intent.RemoveAvatar], "errors.bad_request"),
  avatar: typed,
});

// ---- the JSON calls' parameters (spec §7) as the pages name them ----

/** follow_trader (trader_id, multiple, max_amount): the same names; nothing else is read. */
export function followFieldsOfCall(q: URLSearchParams): Fields {
  return { trader_id: q.get("trader_id") ?? "", multiple: q.get("multiple") ?? "", max_amount: q.get("max_amount") ?? "" };
}

/** canal_follow (trader_id, close_orders 1 / true / close closes the open copies now). */
export function unfollowFieldsOfCall(q: URLSearchParams): Fields {
  return { trader_id: q.get("trader_id") ?? "", open: ["1", "true", "close"].includes(q.get("close_orders") ?? "") ? "close" : "keep" };
}

/** pause_follow (trader_id, paused 1 / 0; pauses when absent). */
export function pauseFieldsOfCall(q: URLSearchParams): Fields {
  return { trader_id: q.get("trader_id") ?? "", paused: q.get("paused") ?? "1" };
}

/** set_copy_stop (trader_id, copy_stop_loss). */
export function copyStopFieldsOfCall(q: URLSearchParams): Fields {
  return { trader_id: q.get("trader_id") ?? "", copy_stop_loss: q.get("copy_stop_loss") ?? "" };
}

/** apply_trader: a GET without `agree` reads the application's state; with it (or a POST) applies. */
export function appliesByCall(method: string, q: URLSearchParams): boolean {
  return method !== "GET" || q.has("agree");
}

/** apply_trader (agree: 1 / on / true ticks it). */
export function applyFieldsOfCall(q: URLSearchParams): Fields {
  return { agree: ticked(q.get("agree")) ? "on" : undefined };
}

// ---- the JSON calls' queries ----

/** `page` as the calls read it: a number, 1 when absent, empty or zero (the services clamp it). */
const pageParam = v.pipe(
  v.optional(v.string(), "1"),
  v.transform((s) => Number(s) || 1),
);

export const PageQuerySchema = v.object({ page: pageParam });

/** trader_detail (trader_id, or id). */
export const TraderQuerySchema = v.object({ trader_id: idOrNull });

export function traderQueryFieldsOfCall(q: URLSearchParams): Fields {
  return { trader_id: q.get("trader_id") ?? q.get("id") ?? undefined };
}

/**
 * my_deal_follow_order (follower_user_id, status 1 / 3, follow_id, user_id = the trader, page).
 * An id given but not one is null; absent is undefined. The status is a number as given (an
 * empty one is 0, which is refused).
 */
export const FollowOrdersQuerySchema = v.object({
  follower_user_id: idOrNull,
  status: v.pipe(v.optional(v.string(), "1"), v.transform(Number)),
  follow_id: idOrNull,
  user_id: idOrNull,
  page: pageParam,
});

export function followOrdersFieldsOfCall(q: URLSearchParams): Fields {
  const status = q.get("status");
  return {
    follower_user_id: q.get("follower_user_id") ?? undefined,
    status: status === "" ? "0" : (status ?? undefined),
    follow_id: q.get("follow_id") ?? undefined,
    user_id: q.get("user_id") ?? undefined,
    page: q.get("page") ?? undefined,
  };
}
