/**
 * Upstream mode's contract trading (issue 23, ADR 024): orders placed, listed, closed, cancelled
 * and given stops through the backend's §7 calls (forex/submit, my_deal, close, cancel_trade,
 * set_stop_price), read back into the platform's order rows, so the trade and order pages (and
 * their live figures, computed from the market room's prices by the same domain rules) do not
 * change. Prices arrive as numbers at the instrument's precision and are read into steps; lots
 * and money into their exact integers. The form's token goes along as `request_id` (a Bourse
 * backend places one order per token); an answer that never came is an unknown outcome, and the
 * order list is where the user looks.
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import type { PlaceCommand, StopsCommand } from "~/domain/contract-command";
import { toScaled6 } from "~/domain/contract";
import type { Instrument } from "~/domain/instrument";
import { priceToSteps } from "~/domain/market";
import type { Micros } from "~/domain/money";
import { fail, type Outcome } from "~/services/outcome";
import type { ContractOrderRow } from "~/services/contract/views";
import { callAsUser } from "./sessions.server";
import { Amount, commandFailed, Int, itemsOf, Time, type UpstreamRead } from "./wire";

/** A price as the contract writes it (a number at the instrument's precision); absent is 0. */
const Num = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d{1,12}(\.\d{1,12})?$/))])), 0),
  v.transform((x) => Number(x ?? 0)),
  v.finite(),
);
/** An amount that may be absent (0). */
const MaybeAmount = v.pipe(
  v.optional(v.nullable(v.union([v.string(), v.number()])), "0"),
  v.transform((x) => x ?? "0"),
  Amount,
);

/** A §3 contract order (toWireOrder is the platform's side of it). */
const WireOrder = v.object({
  Id: v.pipe(Int, v.minValue(1)),
  OriginId: v.optional(v.nullable(Int), 0),
  ForexId: v.pipe(Int, v.minValue(1)),
  ForexTradeLists: v.optional(v.nullable(v.object({ Code: v.optional(v.string()) })), null),
  OrderType: v.picklist([1, 2, "1", "2"]),
  Quantity: v.pipe(v.union([v.number(), v.string()]), v.transform(String)),
  Multiple: v.optional(v.nullable(Int), 0),
  OriginPrice: Num,
  Price: Num,
  ClosePrice: Num,
  FactProfits: MaybeAmount,
  CautionMoney: MaybeAmount,
  TradeFee: MaybeAmount,
  TargetLossPrice: Num,
  TargetProfitPrice: Num,
  LiquidationPrice: Num,
  Status: v.pipe(Int, v.picklist([0, 1, 3, 4])),
  CloseType: v.optional(v.nullable(v.string()), ""),
  FollowType: v.optional(Int, 1),
  CreateTimeHandler: Time,
  CompleteTimeHandler: Time,
});
type WireOrder = v.InferOutput<typeof WireOrder>;

const OrderList = v.object({
  data: v.array(v.unknown()),
  all_fact_profits: MaybeAmount,
  total: v.optional(Int, 0),
  last_page: v.optional(Int, 1),
  page: v.optional(Int, 1),
});

/**
 * A backend order as the platform's row, with the instrument's terms the contract does not
 * repeat per order (contract size, precision, margin mode); null when it cannot be read (an
 * instrument the backend no longer lists, a malformed figure): such an order is left out.
 */
export function toOrderRow(w: WireOrder, userId: number, byId: Map<number, Instrument>): ContractOrderRow | null {
  const instrument = byId.get(w.ForexId);
  const lots = toScaled6(w.Quantity);
  const contractSize = instrument ? toScaled6(instrument.contractSize) : null;
  if (!instrument || lots === null || contractSize === null) return null;
  const p = instrument.pricePrecision;
  const steps = (price: number) => (price > 0 ? priceToSteps(price, p) : 0);
  const status = w.Status as ContractOrderRow["status"];
  const created = w.CreateTimeHandler ?? 0;
  return {
    id: w.Id,
    userId,
    accountId: 0,
    instrumentId: w.ForexId,
    code: w.ForexTradeLists?.Code || instrument.code,
    side: Number(w.OrderType) === 2 ? 2 : 1,
    status,
    lots,
    contractSize,
    precision: p,
    leverage: w.Multiple ?? 0,
    marginMode: instrument.marginMode,
    originPrice: steps(w.OriginPrice),
    openPrice: status === 0 || status === 4 || !(w.Price > 0) ? null : steps(w.Price),
    pendingCrossing: 0,
    closePrice: w.ClosePrice > 0 ? steps(w.ClosePrice) : null,
    margin: w.CautionMoney,
    fee: w.TradeFee,
    stopLoss: steps(w.TargetLossPrice),
    takeProfit: steps(w.TargetProfitPrice),
    liquidation: steps(w.LiquidationPrice),
    profit: status === 3 ? w.FactProfits : null,
    closeReason: w.CloseType || null,
    followType: w.FollowType,
    originId: w.OriginId || null,
    followId: null,
    createdAt: created,
    filledAt: status === 1 || status === 3 ? created : null,
    closedAt: w.CompleteTimeHandler,
    updatedAt: w.CompleteTimeHandler ?? created,
  };
}

function rowsOf(data: unknown[], userId: number, byId: Map<number, Instrument>): ContractOrderRow[] {
  return itemsOf(data, WireOrder).flatMap((item) => {
    const row = toOrderRow(item, userId, byId);
    if (!row) console.error("upstream my_deal: an order's instrument is not listed; it is left out");
    return row ? [row] : [];
  });
}

export interface UpstreamOrderPage {
  rows: ContractOrderRow[];
  total: number;
  /** all_fact_profits as the backend states it. */
  allProfit: Micros;
  page: number;
  lastPage: number;
}

/** A page of the user's orders of one list (spec §7 my_deal: 0 pending, 1 holding, 3 history, 4 cancelled). */
export async function upstreamOrderPage(
  ctx: AppContext,
  userId: number,
  status: number,
  page: number,
  instruments: Instrument[],
): Promise<UpstreamRead<UpstreamOrderPage>> {
  const answer = await callAsUser(ctx, { method: "GET", path: "/v2/api/forex/my_deal", params: { status, page }, read: true });
  if (!answer.ok) return { ok: false, kind: answer.kind === "session_ended" ? "session_ended" : "unavailable" };
  const parsed = v.safeParse(OrderList, answer.data);
  if (!parsed.success) return { ok: false, kind: "unavailable" };
  const byId = new Map(instruments.map((i) => [i.id, i]));
  const list = parsed.output;
  return {
    ok: true,
    value: {
      rows: rowsOf(list.data, userId, byId),
      total: list.total,
      allProfit: list.all_fact_profits,
      page: list.page,
      lastPage: Math.max(1, list.last_page),
    },
  };
}

/** Pages of each list an order is looked for in (the contract has no call for one order). */
const FIND_PAGES = 3;

/** One of the user's orders, found in its lists (holding and pending first: the ones a page just placed). */
export async function upstreamOrder(
  ctx: AppContext,
  userId: number,
  id: number,
  instruments: Instrument[],
): Promise<UpstreamRead<ContractOrderRow | null>> {
  for (const status of [1, 0, 3, 4]) {
    for (let page = 1; page <= FIND_PAGES; page++) {
      const read = await upstreamOrderPage(ctx, userId, status, page, instruments);
      if (!read.ok) return read;
      const found = read.value.rows.find((r) => r.id === id);
      if (found) return { ok: true, value: found };
      if (page >= read.value.lastPage) break;
    }
  }
  return { ok: true, value: null };
}

/** The fields of the order forms, which a backend refusal may name. */
const ORDER_FORM_FIELDS = ["type", "cont", "forex_id", "status", "target_price", "stop_loss_price", "target_profit_price", "multiple"];

function answeredRow(data: unknown, userId: number, instruments: Instrument[]): ContractOrderRow | null {
  const parsed = v.safeParse(WireOrder, data);
  return parsed.success ? toOrderRow(parsed.output, userId, new Map(instruments.map((i) => [i.id, i]))) : null;
}

/** Places an order (spec §7 forex/submit, a GET by the contract: never asked again by itself). */
export async function upstreamPlace(
  ctx: AppContext,
  userId: number,
  command: PlaceCommand,
  instruments: Instrument[],
): Promise<Outcome<ContractOrderRow>> {
  const answer = await callAsUser<unknown>(ctx, {
    method: "GET",
    path: "/v2/api/forex/submit",
    params: {
      type: command.side,
      cont: command.lots,
      forex_id: command.instrumentId,
      status: command.entry,
      target_price: command.entry === 0 ? command.targetPrice : undefined,
      stop_loss_price: command.stopLoss || undefined,
      target_profit_price: command.takeProfit || undefined,
      multiple: command.leverage,
      request_id: command.requestKey,
    },
  });
  if (!answer.ok) return commandFailed(answer, ORDER_FORM_FIELDS);
  const row = answeredRow(answer.data, userId, instruments);
  // placed (code 1), but its record cannot be read: the order list shows it
  return row ? { ok: true, value: row } : fail({ form: "errors.outcome_unknown" }, 503);
}

/** Closes, cancels or sets the stops of one of the user's orders (spec §7 close, cancel_trade, set_stop_price). */
export async function upstreamOrderAction(
  ctx: AppContext,
  userId: number,
  action: { kind: "close" | "cancel"; id: number } | { kind: "stops"; command: StopsCommand },
  instruments: Instrument[],
): Promise<Outcome<ContractOrderRow>> {
  const call =
    action.kind === "stops"
      ? {
          path: "/v2/api/forex/set_stop_price",
          params: {
            id: action.command.id,
            stop_loss_price: action.command.stopLoss ?? "0",
            target_profit_price: action.command.takeProfit ?? "0",
          },
        }
      : { path: action.kind === "close" ? "/v2/api/forex/close" : "/v2/api/forex/cancel_trade", params: { id: action.id } };
  const answer = await callAsUser<unknown>(ctx, { method: "GET", ...call });
  if (!answer.ok) return commandFailed(answer, ["stop_loss_price", "target_profit_price"]);
  const row = answeredRow(answer.data, userId, instruments);
  return row ? { ok: true, value: row } : fail({ form: "errors.outcome_unknown" }, 503);
}
