/**
 * JSON calls of contract trading (spec §7 /v2/api/forex/*): submit, my_deal, close,
 * cancel_trade, set_stop_price, with the spec §3 contract order fields. Calls that change
 * something accept GET (as the spec's clients send them, token in the authorization header) and
 * POST.
 */
import type { AppContext } from "~/context.server";
import type { FieldErrors } from "~/services/outcome";
import { hundredthsToPercent, riskRate, scaled6ToDecimal, stepsToDecimal } from "~/domain/contract";
import { toDecimalString } from "~/domain/money";
import { ApiStopsSchema, OrderActionSchema, OrderListSchema, orderActionErrorsOf, stopsCommandOf } from "~/forms/orders";
import { parseFields, parseQuery } from "~/forms/parse";
import { ApiOrderSchema, orderCommandOf, orderErrorsOf, orderFieldsOfApi } from "~/forms/trade";
import { cancelOrder, closeOrder, placeOrder, prepareOrder, setStops } from "~/services/contract/commands.server";
import { listOrders, orderDetail, withFigures } from "~/services/contract/queries.server";
import type { ContractOrder } from "~/services/contract/views";
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
  const input = parseFields(ApiOrderSchema, orderFieldsOfApi(q));
  // the session check and the price read run side by side
  const prepared = input.ok ? prepareOrder(ctx, input.value.forex_id) : undefined;
  // the order's batch re-checks the session, so a cached lookup saves a read per order
  const session = await sessionForWrite(request, ctx);
  if (session instanceof Response) return session;
  if (!input.ok) return failure(ctx, input.errors);
  const user = session.user;
  const contractAccount = session.accounts.contract;
  const result = await placeOrder(ctx, user.id, orderCommandOf(input.value), {
    prepared,
    sessionId: session.sessionId,
    trader: user.isTrader,
    account: contractAccount === undefined ? undefined : { id: contractAccount, isDemo: user.isDemo },
  });
  if (!result.ok && result.errors.form === "errors.session_invalid") return invalidSession(ctx);
  if (!result.ok) return failure(ctx, orderErrorsOf(result.errors));
  return ok(ctx, toWireOrder(result.value), "contract.order_confirmed");
};

/** A refusal of an order's own call (close, cancel_trade, set_stop_price) by the API's fields: a missing, foreign or closed order answers 404, nothing revealed. */
function refused(ctx: AppContext, errors: FieldErrors, status: number) {
  return failure(ctx, orderActionErrorsOf(errors), status);
}

const close: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const input = parseFields(OrderActionSchema, q);
  // the only field is the order's id: a missing or malformed one is an order not found
  if (!input.ok) return refused(ctx, { id: "errors.not_found" }, 404);
  const result = await closeOrder(ctx, user.id, input.value.id);
  if (!result.ok) return refused(ctx, result.errors, result.status);
  return ok(ctx, await wire(ctx, result.value), "contract.closed");
};

const cancel: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const input = parseFields(OrderActionSchema, q);
  // the only field is the order's id: a missing or malformed one is an order not found
  if (!input.ok) return refused(ctx, { id: "errors.not_found" }, 404);
  const result = await cancelOrder(ctx, user.id, input.value.id);
  if (!result.ok) return refused(ctx, result.errors, result.status);
  return ok(ctx, await wire(ctx, result.value), "contract.cancelled");
};

const stops: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  const q = await params(request, ctx);
  if (q instanceof Response) return q;
  const input = parseFields(ApiStopsSchema, q);
  if (!input.ok) return refused(ctx, input.errors, input.errors.id ? 404 : 400);
  const result = await setStops(ctx, user.id, stopsCommandOf(input.value));
  if (!result.ok) return refused(ctx, result.errors, result.status);
  return ok(ctx, await wire(ctx, result.value), "contract.stops_saved");
};

const myDeal: Handler = async (request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  // 0 pending, 1 holding, 3 closed (spec §7); 4 the cancelled pending orders (never in 3)
  const input = parseQuery(OrderListSchema, query(request));
  if (!input.ok) return failure(ctx, { status: "errors.bad_request" });
  const page = await listOrders(ctx, user.id, input.value.status, input.value.page);
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
  const input = parseFields(OrderActionSchema, query(request));
  const order = input.ok ? await orderDetail(ctx, user.id, input.value.id) : null;
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
