/**
 * Upstream mode's timed options (issue 23, ADR 024): the durations and stakes on offer (§7
 * get_seconds, through the D1 cache: they are terms), buying (micro/submit) and the user's
 * options (micro/orders), read back into the platform's option rows, so the trade page's future
 * tab and the order page's options lists do not change. Prices are read into steps, money into
 * micros. A backend that states an option's receipt (a Bourse backend: the ticks that opened and
 * decided it) has it shown; another's options show their times as the list states them.
 */
import * as v from "valibot";
import type { AppContext, ServiceContext } from "~/context.server";
import { priceToSteps } from "~/domain/market";
import type { BuyCommand } from "~/domain/option";
import type { Instrument } from "~/domain/instrument";
import type { Duration, OptionRow, OptionTerms } from "~/services/option/views";
import { fail, type Outcome } from "~/services/outcome";
import { cachedRead, FRESH_MS } from "./cache.server";
import { callAsUser } from "./sessions.server";
import { Amount, commandFailed, Decimal, Int, itemsOf, Time, type UpstreamRead } from "./wire";

const Ratio = Decimal;
const Price = v.optional(v.nullable(v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.finite())), null);

const Seconds = v.object({
  sec: v.array(v.object({ Id: v.optional(Int, 0), Seconds: v.pipe(Int, v.minValue(1)), ProfitRatio: Ratio, LimitAmount: Amount })),
  number: v.optional(v.array(v.object({ Number: Amount })), []),
});

/** The terms on offer (durations and preset stakes), through the cache; none when the backend never answered. */
export async function upstreamOptionTerms(ctx: ServiceContext, lossLevel: number): Promise<OptionTerms> {
  const terms = await cachedRead(ctx, { path: "/v2/api/micro/get_seconds", schema: Seconds, freshMs: FRESH_MS.instruments });
  const durations: Duration[] = (terms?.data.sec ?? []).map((d, n) => ({
    id: d.Id || n + 1,
    seconds: d.Seconds,
    profitRatio: d.ProfitRatio,
    minAmount: d.LimitAmount,
  }));
  return { durations, amounts: (terms?.data.number ?? []).map((a) => a.Number), lossLevel };
}

/** A §3 micro order (toWireOption is the platform's side of it, with its receipt). */
const WireOption = v.object({
  Id: v.pipe(Int, v.minValue(1)),
  Type: v.picklist([1, 2, "1", "2"]),
  Number: Amount,
  OpenPrice: Price,
  EndPrice: Price,
  ProfitRatio: Ratio,
  Seconds: v.pipe(Int, v.minValue(1)),
  Status: v.pipe(Int, v.picklist([1, 3])),
  FactProfits: v.optional(v.nullable(Amount), null),
  ForexTradeList: v.object({ Id: v.pipe(Int, v.minValue(1)), ShowCode: v.optional(v.string(), "") }),
  CreatedAtST: Time,
  CompleteAtST: Time,
  Receipt: v.optional(
    v.nullable(
      v.object({
        open: v.optional(v.object({ tickAt: Time, feed: v.optional(v.nullable(v.string()), "") })),
        expiresAt: Time,
        settlement: v.optional(
          v.nullable(v.object({ tickAt: Time, feed: v.optional(v.nullable(v.string()), ""), late: v.optional(v.boolean(), false) })),
        ),
      }),
    ),
    null,
  ),
});
type WireOption = v.InferOutput<typeof WireOption>;

export type UpstreamOption = OptionRow & { showCode: string };

function toOptionRow(w: WireOption, userId: number, byId: Map<number, Instrument>, lossLevel: number): UpstreamOption | null {
  const instrument = byId.get(w.ForexTradeList.Id);
  if (!instrument || w.OpenPrice === null) return null;
  const p = instrument.pricePrecision;
  const created = w.CreatedAtST ?? 0;
  const expiresAt = w.Receipt?.expiresAt ?? created + w.Seconds * 1000;
  const settled = w.Status === 3;
  return {
    id: w.Id,
    userId,
    accountId: 0,
    instrumentId: instrument.id,
    code: instrument.code,
    showCode: w.ForexTradeList.ShowCode || instrument.showCode,
    direction: Number(w.Type) === 2 ? 2 : 1,
    amount: w.Number,
    profitRatio: w.ProfitRatio,
    seconds: w.Seconds,
    lossLevel,
    precision: p,
    openPrice: priceToSteps(w.OpenPrice, p),
    openTickAt: w.Receipt?.open?.tickAt ?? created,
    openFeed: w.Receipt?.open?.feed || "upstream",
    expiresAt,
    status: w.Status,
    endPrice: settled && w.EndPrice !== null ? priceToSteps(w.EndPrice, p) : null,
    endTickAt: settled ? (w.Receipt?.settlement?.tickAt ?? w.CompleteAtST ?? expiresAt) : null,
    endFeed: settled ? w.Receipt?.settlement?.feed || "upstream" : null,
    late: w.Receipt?.settlement?.late ? 1 : 0,
    profit: settled ? (w.FactProfits ?? 0) : null,
    createdAt: created,
    settledAt: settled ? (w.CompleteAtST ?? expiresAt) : null,
    updatedAt: w.CompleteAtST ?? created,
  };
}

const OptionList = v.object({
  data: v.array(v.unknown()),
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
});

export interface UpstreamOptionPage {
  options: UpstreamOption[];
  total: number;
  page: number;
  lastPage: number;
}

/** A page of the user's options (spec §7 micro/orders: 1 in transaction, 3 settled). */
export async function upstreamOptionPage(
  ctx: AppContext,
  userId: number,
  status: number,
  page: number,
  instruments: Instrument[],
  lossLevel: number,
): Promise<UpstreamRead<UpstreamOptionPage>> {
  const answer = await callAsUser(ctx, { method: "GET", path: "/v2/api/micro/orders", params: { status, page }, read: true });
  if (!answer.ok) return { ok: false, kind: answer.kind === "session_ended" ? "session_ended" : "unavailable" };
  const list = v.safeParse(OptionList, answer.data);
  if (!list.success) return { ok: false, kind: "unavailable" };
  const byId = new Map(instruments.map((i) => [i.id, i]));
  const options = itemsOf(list.output.data, WireOption).flatMap((item) => {
    const row = toOptionRow(item, userId, byId, lossLevel);
    if (!row) console.error("upstream micro/orders: an option's instrument is not listed; it is left out");
    return row ? [row] : [];
  });
  return { ok: true, value: { options, total: list.output.total, page: list.output.page, lastPage: Math.max(1, list.output.last_page) } };
}

/** Pages of each list an option is looked for in (the contract has no call for one option). */
const FIND_PAGES = 3;

/** One of the user's options, found in its lists (in transaction first: the one a page just bought). */
export async function upstreamOption(
  ctx: AppContext,
  userId: number,
  id: number,
  instruments: Instrument[],
  lossLevel: number,
): Promise<UpstreamRead<UpstreamOption | null>> {
  for (const status of [1, 3]) {
    for (let page = 1; page <= FIND_PAGES; page++) {
      const read = await upstreamOptionPage(ctx, userId, status, page, instruments, lossLevel);
      if (!read.ok) return read;
      const found = read.value.options.find((o) => o.id === id);
      if (found) return { ok: true, value: found };
      if (page >= read.value.lastPage) break;
    }
  }
  return { ok: true, value: null };
}

/** Buys an option (spec §7 micro/submit, a GET by the contract: never asked again by itself). */
export async function upstreamBuy(
  ctx: AppContext,
  userId: number,
  command: BuyCommand,
  instruments: Instrument[],
  lossLevel: number,
): Promise<Outcome<UpstreamOption>> {
  const answer = await callAsUser<unknown>(ctx, {
    method: "GET",
    path: "/v2/api/micro/submit",
    params: {
      forex_id: command.instrumentId,
      type: command.direction,
      number: command.amount,
      seconds: command.seconds,
      request_id: command.requestKey,
    },
  });
  if (!answer.ok) return commandFailed(answer, ["number", "seconds", "type", "forex_id"]);
  const parsed = v.safeParse(WireOption, answer.data);
  const row = parsed.success ? toOptionRow(parsed.output, userId, new Map(instruments.map((i) => [i.id, i])), lossLevel) : null;
  return row ? { ok: true, value: row } : fail({ form: "errors.outcome_unknown" }, 503);
}
