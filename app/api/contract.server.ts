/**
 * JSON calls of contract trading (spec §7 /v2/api/forex/*): submit, my_deal, close,
 * cancel_trade, set_stop_price, with the spec §3 contract order fields. Calls that change
 * something accept GET (as the spec's clients send them, token in the authorization header) and
 * POST.
 */
import type { AppContext } from "~/context.server";
import { hundredthsToPercent, riskRate, scaled6ToDecimal, stepsToDecimal } from "~/domain/contract";
import { toDecimalString } from "~/domain/money";
import {
  cancelOrder,
  closeOrder,
  listOrders,
  messageOf,
  orderDetail,
  placeOrder,
  prepareOrder,
  setStops,
  withFigures,
  type ContractOrder,
} from "~/services/contract.server";
import { listInstruments, marketQuotes } from "~/services/market.server";
import {
  actingUserOrInvalid,
  failure,
  invalidSession,
  ok,
  params,
  query,
  sessionForWrite,
  userOrInvalid,
  type Handler,
  type Routes,
} from "./common.server";

/** Amounts are exact decimal strings ("10.00"), as everywhere in the API; prices are numbers at the instrument's precision. */
const money = (micros: number | null, decimals = 2) => (micros === null ? null : toDecimalString(micros, decimals));
const price = (steps: number | null, precision: number) => (steps === null || steps === 0 ? 0 : Number(stepsToDecimal(steps, precision)));
const time = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/** Spec §3 contract order. */
export function toWireOrder(o: ContractOrder) {
  const risk = o.status === 1 ? riskRate(o.margin, o.currentProfit) : null;
  return {
    Id: o.id,
    OriginId: o.originId ?? 0,
    ForexId: o.instrumentId,
    ForexTradeLists: { Id: o.instrumentId, Code: o.code, ShowCode: o.showCode },
    OrderType: o.side,
    Quantity: Number(scaled6ToDecimal(o.lots)),
    Multiple: o.leverage,
    OriginPrice: price(o.originPrice, o.precision),
    Price: price(o.openPrice, o.precision),
    UpdatePrice: price(o.markPrice, o.precision),
    ClosePrice: price(o.closePrice, o.precision),
    FactProfits: money(o.currentProfit),
    CautionMoney: money(o.margin, 6),
    TradeFee: money(o.fee, 6),
    TargetLossPrice: price(o.stopLoss, o.precision),
    TargetProfitPrice: price(o.takeProfit, o.precision),
    LiquidationPrice: price(o.liquidation, o.precision),
    RiskRate: risk === null ? null : hundredthsToPercent(risk),
    Status: o.status,
    CloseType: o.closeReason ?? "",
    FollowType: o.followType,
    CreateTimeHandler: time(o.createdAt),
    CompleteTimeHandler: time(o.closedAt),
  };
}

async function wire(ctx: AppContext, row: Parameters<typeof withFigures>[0]) {
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  return toWireOrder(withFigures(row, market.quotes, new Map(list.map((i) => [i.code, i.showCode]))));
}

const submit: Handler = async (request, ctx) => {
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  // the session check and the price read run side by side
  const prepared = prepareOrder(ctx, Number(q.get("forex_id")));
  // the order's batch re-checks the session, so a cached lookup saves a read per order
  const session = await sessionForWrite(request, ctx);
  if (session instanceof Response) return session;
  const user = session.user;
  const multiple = q.get("multiple");
  const result = await placeOrder(ctx, user.id, {
    side: Number(q.get("type")),
    lots: q.get("cont") ?? "",
    instrumentId: Number(q.get("forex_id")),
    entry: q.get("status") === "0" ? 0 : 1,
    targetPrice: q.get("target_price") ?? undefined,
    stopLoss: q.get("stop_loss_price") ?? undefined,
    takeProfit: q.get("target_profit_price") ?? undefined,
    leverage: multiple && /^\d{1,4}$/.test(multiple) ? Number(multiple) : undefined,
    requestKey: q.get("request_id") ?? undefined,
    prepared,
    sessionId: session.sessionId,
    trader: user.isTrader,
  });
  if (!result.ok && result.error === "errors.session_invalid") return invalidSession(ctx);
  if (!result.ok) return failure(ctx, { [result.field ?? "form"]: messageOf(result) });
  return ok(ctx, toWireOrder(result.value), "contract.order_confirmed");
};

function idOf(q: URLSearchParams) {
  const id = q.get("id") ?? "";
  return /^\d{1,15}$/.test(id) ? Number(id) : 0;
}

/** Someone else's order, one that does not exist and one already closed: 404, nothing revealed. */
const refusalStatus = (error: string) => (error === "errors.not_found" || error === "errors.order_closed" ? 404 : 400);

const close: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const result = await closeOrder(ctx, user.id, idOf(q));
  if (!result.ok) return failure(ctx, { id: messageOf(result) }, refusalStatus(result.error));
  return ok(ctx, await wire(ctx, result.value), "contract.closed");
};

const cancel: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const result = await cancelOrder(ctx, user.id, idOf(q));
  if (!result.ok) return failure(ctx, { id: messageOf(result) }, refusalStatus(result.error));
  return ok(ctx, await wire(ctx, result.value), "contract.cancelled");
};

const stops: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const result = await setStops(ctx, user.id, idOf(q), {
    stopLoss: q.get("stop_loss_price") ?? undefined,
    takeProfit: q.get("target_profit_price") ?? undefined,
  });
  if (!result.ok) return failure(ctx, { [result.field ?? "id"]: messageOf(result) }, refusalStatus(result.error));
  return ok(ctx, await wire(ctx, result.value), "contract.stops_saved");
};

const myDeal: Handler = async (request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  const q = query(request);
  const status = Number(q.get("status") ?? "1");
  // 0 pending, 1 holding, 3 closed (spec §7); 4 the cancelled pending orders (never in 3)
  if (![0, 1, 3, 4].includes(status)) return failure(ctx, { status: "errors.bad_request" });
  const page = await listOrders(ctx, user.id, status, Number(q.get("page") ?? "1"));
  return ok(ctx, {
    data: page.orders.map(toWireOrder),
    all_fact_profits: money(page.allProfit),
    total: page.total,
    last_page: page.lastPage,
    page: page.page,
  });
};

const detail: Handler = async (request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  const order = await orderDetail(ctx, user.id, idOf(query(request)));
  if (!order) return failure(ctx, { id: "errors.not_found" }, 404);
  return ok(ctx, toWireOrder(order));
};

export const contractRoutes: Routes = {
  "/v2/api/forex/submit": { GET: submit, POST: submit },
  "/v2/api/forex/my_deal": { GET: myDeal },
  "/v2/api/forex/deal_info": { GET: detail },
  "/v2/api/forex/close": { GET: close, POST: close },
  "/v2/api/forex/cancel_trade": { GET: cancel, POST: cancel },
  "/v2/api/forex/set_stop_price": { GET: stops, POST: stops },
};
