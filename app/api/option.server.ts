/**
 * JSON calls of timed options (spec §7 /v2/api/micro/*): get_seconds (sec and number), submit
 * (forex_id, type 1 up / 2 down, number, seconds) and orders (status, page) with the spec §3
 * micro order fields, plus each option's receipt (the ticks that decided it).
 */
import { stepsToDecimal } from "~/domain/contract";
import { toDecimalString } from "~/domain/money";
import { ApiOptionSchema, OptionListSchema, buyCommandOf, buyErrorsOf, optionFieldsOfApi } from "~/forms/option";
import { parseFields, parseQuery } from "~/forms/parse";
import { buyOption } from "~/services/option/commands.server";
import { listOptions, optionTerms } from "~/services/option/queries.server";
import type { OptionRow } from "~/services/option/views";
import { failure, ok, params, query, sessionForWrite, userOrInvalid, type Handler, type Routes } from "./common.server";

const money = (micros: number | null) => (micros === null ? null : toDecimalString(micros, 2));
const price = (steps: number | null, precision: number) => (steps === null ? null : Number(stepsToDecimal(steps, precision)));
const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/** Spec §3 micro order, and its receipt. */
export function toWireOption(o: OptionRow & { showCode: string }, now = Date.now()) {
  return {
    Id: o.id,
    Type: o.direction,
    Number: money(o.amount),
    OpenPrice: price(o.openPrice, o.precision),
    EndPrice: price(o.endPrice, o.precision),
    ProfitRatio: o.profitRatio,
    Seconds: o.seconds,
    RemainMilliSeconds: o.status === 1 ? Math.max(0, o.expiresAt - now) : 0,
    Status: o.status,
    FactProfits: money(o.profit),
    ForexTradeList: { Id: o.instrumentId, ShowCode: o.showCode },
    CreatedAtST: iso(o.createdAt),
    CompleteAtST: iso(o.settledAt),
    Receipt: {
      open: { price: price(o.openPrice, o.precision), tickAt: iso(o.openTickAt), feed: o.openFeed },
      expiresAt: iso(o.expiresAt),
      settlement:
        o.endTickAt === null
          ? null
          : { price: price(o.endPrice, o.precision), tickAt: iso(o.endTickAt), feed: o.endFeed, late: o.late === 1 },
    },
  };
}

const submit: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const session = await sessionForWrite(request, ctx);
  if (session instanceof Response) return session;
  const input = parseFields(ApiOptionSchema, optionFieldsOfApi(q));
  if (!input.ok) return failure(ctx, input.errors);
  const result = await buyOption(ctx, session.user.id, buyCommandOf(input.value));
  if (!result.ok) return failure(ctx, buyErrorsOf(result.errors));
  return ok(ctx, toWireOption({ ...result.value, showCode: result.value.code }), "option.bought");
};

export const optionRoutes: Routes = {
  "/v2/api/micro/get_seconds": {
    GET: async (_request, ctx) => {
      const terms = await optionTerms(ctx);
      return ok(ctx, {
        sec: terms.durations.map((d) => ({ Id: d.id, Seconds: d.seconds, ProfitRatio: d.profitRatio, LimitAmount: money(d.minAmount) })),
        number: terms.amounts.map((a) => ({ Number: money(a) })),
      });
    },
  },
  "/v2/api/micro/submit": { GET: submit, POST: submit },
  "/v2/api/micro/orders": {
    GET: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const input = parseQuery(OptionListSchema, query(request));
      if (!input.ok) return failure(ctx, { status: "errors.bad_request" });
      const page = await listOptions(ctx, user.id, input.value.status, input.value.page);
      return ok(ctx, { data: page.options.map((o) => toWireOption(o)), total: page.total, last_page: page.lastPage, page: page.page });
    },
  },
};
