/**
 * Mining forms and calls (spec §7 /api/fund/* names: id, amount, request_id, sub_id, page; the
 * subscribe page's confirm step adds terms), one schema per command for the pages and the JSON
 * API alike. The schemas only shape the input: an id that is not one becomes null (the service
 * answers "closed" / "not found", as for a closed product), a page number 1, an unusable
 * request_id none (the service makes one up). The amount stays as typed: the rules that read it
 * (spec §5: empty → "input lock num", the product's bounds, the funding balance) come after the
 * product's own checks, in app/services/fund (checkSubscription), so each refusal keeps its order.
 */
import * as v from "valibot";
// Loads the shared setup (valibot's fallback message is a translatable key).
import "~/forms/fields";

const ID = /^\d{1,9}$/;
const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A page number from a query value: 1 for anything odd. */
export function pageNumber(value: string | null | undefined): number {
  return value && /^\d{1,5}$/.test(value) ? Math.max(1, Number(value)) : 1;
}

/** A product's or a subscription's id as sent, or null. */
export function idParam(value: string | null | undefined): number | null {
  return value && ID.test(value.trim()) ? Number(value.trim()) : null;
}

/** A field as sent (conform reads an empty one as missing); the commands shape it. */
const raw = v.optional(v.string());

/** A subscription (spec §7 buy; the page's review and confirm steps). */
export interface SubscribeCommand {
  fundId: number | null;
  /** The amount as typed (the service's checkSubscribeAmount reads it against the product). */
  amount: string;
  /** The form's one-time nonce: a double submit is one subscription. */
  requestId?: string;
  /** The terms the confirm step showed (fundTermsKey); when sent, changed terms are refused. */
  terms?: string;
}

export const SubscribeSchema = v.pipe(
  v.object({ id: raw, amount: raw, request_id: raw, terms: raw }),
  v.transform((f): SubscribeCommand => ({
    fundId: idParam(f.id),
    amount: f.amount ?? "",
    requestId: f.request_id && REQUEST_ID.test(f.request_id) ? f.request_id : undefined,
    terms: f.terms,
  })),
);

/** A redemption request (spec §7 applyRefund; the record page's confirm). */
export interface RedeemCommand {
  subId: number | null;
}

export const RedeemSchema = v.pipe(
  v.object({ sub_id: raw }),
  v.transform((f): RedeemCommand => ({ subId: idParam(f.sub_id) })),
);

/** A page of a list (spec §7 list, subList). */
export const FundPageSchema = v.pipe(
  v.object({ page: raw }),
  v.transform((f) => ({ page: pageNumber(f.page) })),
);

/** One product (spec §7 info). */
export const FundInfoSchema = v.pipe(
  v.object({ id: raw }),
  v.transform((f) => ({ id: idParam(f.id) })),
);

/** A page of one subscription's income (spec §7 insList). */
export const IncomePageSchema = v.pipe(
  v.object({ sub_id: raw, page: raw }),
  v.transform((f) => ({ subId: idParam(f.sub_id), page: pageNumber(f.page) })),
);
