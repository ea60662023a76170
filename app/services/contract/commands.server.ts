/**
 * Contract trading's commands (issue 8): placing market and pending orders, closing, cancelling,
 * stop-loss and take-profit. Each takes its typed command (app/domain/contract-command.ts, from
 * the forms of app/forms/trade.ts and app/forms/orders.ts) and answers an Outcome whose refusals
 * name the command's fields.
 *
 * Every transition is one ledger transaction guarded by the order's unique state-transition key
 * (`order_exits`: one per order leaving a state, shared by every path that can move it), so a
 * manual close and a stop-loss of the same position, or two tabs closing it, realise exactly once.
 * Figures come from app/domain/contract.ts, the same functions the browser's preview runs.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import {
  MAX_EFFECTIVE_LEVERAGE,
  OrderStatus,
  checkEffectiveLeverage,
  checkPendingPrice,
  orderFigures,
  pendingPriceBand,
  profit as profitOf,
  realisedProfit,
  stepsToDecimal,
  type ExitReason,
} from "~/domain/contract";
import { checkPlaceCommand, checkStopPrices, checkStopSides, type PlaceCommand, type StopsCommand } from "~/domain/contract-command";
import type { EngineChange } from "~/domain/engine";
import { leverages } from "~/domain/instrument";
import { priceToSteps, type Quote } from "~/domain/market";
import { AccountKind, Bucket, tradingAccount } from "~/services/ledger/accounts.server";
import { LedgerError, post, txOfKey, type Posting } from "~/services/ledger/post.server";
import { notifyEngine } from "~/services/live.server";
import { findInstrument, listInstruments, marketQuotes, quoteOf } from "~/services/market.server";
import { upstreamOrderAction, upstreamPlace } from "~/services/upstream/contract.server";
import { fail, refuse, type Outcome } from "~/services/outcome";
import { forgetCachedSession } from "~/services/session.server";
import { engineOrderOf, openOrderWrite } from "./engine.server";
import { ORDER_COLUMNS } from "./columns";
import { feeMode, orderRow, ownOrder, termsOf, withFigures } from "./queries.server";
import { profitShareFor, type ProfitShare } from "./settlement.server";
import type { ContractOrder, ContractOrderRow } from "./views";

/** Refusals that depend on the moment, not on the command. */
const CONFLICT = 409;
/** Someone else's order, one that does not exist and one already closed: nothing revealed. */
const GONE = 404;

/** A user's contract account, and whether the user is a demo user, never change: each isolate remembers the last few thousand. */
const contractAccounts = new Map<number, ContractAccount>();
type ContractAccount = { id: number; isDemo: boolean };

async function contractAccountOf(ctx: ServiceContext, userId: number): Promise<ContractAccount | null> {
  const known = contractAccounts.get(userId);
  if (known !== undefined) return known;
  const row = await ctx.d1
    .prepare("SELECT a.id, u.is_demo AS demo FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = ?1 AND a.kind = ?2")
    .bind(userId, AccountKind.Contract.kind)
    .first<{ id: number; demo: number }>();
  if (!row) return null;
  if (contractAccounts.size >= 5_000) contractAccounts.delete(contractAccounts.keys().next().value!);
  const account = { id: row.id, isDemo: row.demo === 1 };
  contractAccounts.set(userId, account);
  return account;
}

/** The current quote of an instrument, and whether it can be traded on now. */
function liveQuote(ctx: ServiceContext, code: string): Promise<{ quote: Quote | null; stale: boolean }> {
  return quoteOf(ctx, code);
}

/** Starts reading the price an order on this instrument needs, e.g. while the session is checked (pass it as `quote`). */
export function prepareOrder(
  ctx: ServiceContext,
  instrumentId: number,
): Promise<{ code: string; quote: Quote | null; stale: boolean } | null> {
  const read = findInstrument(ctx, instrumentId).then(async (i) => (i ? { code: i.code, ...(await quoteOf(ctx, i.code)) } : null));
  read.catch(() => {});
  return read;
}

/** How an order reached the service (besides its command). */
export interface PlaceOptions {
  /** The price read started by prepareOrder (else it is read here). */
  prepared?: ReturnType<typeof prepareOrder>;
  /** When the user came from a cached session lookup: the batch re-checks this session (writeSessionGuard). */
  sessionId?: string;
  /**
   * The user leads copy trading: a market order is told to the engine at once, so the copies open
   * without waiting for the next tick's catch-up (other users' orders are not notified: the
   * catch-up finds them, which keeps the order path to one batch).
   */
  trader?: boolean;
  /** The user's contract account when the caller has it (the write path's session read brings it). */
  account?: ContractAccount;
}

/** Places a market or pending order: margin (and fee) move in one ledger transaction with the order row. */
export async function placeOrder(
  ctx: ServiceContext,
  userId: number,
  command: PlaceCommand,
  options: PlaceOptions = {},
): Promise<Outcome<ContractOrder>> {
  const instrument = await findInstrument(ctx, command.instrumentId);
  if (!instrument) return fail({ instrumentId: "errors.instrument_not_found" });
  // the price and the account are fetched while the command is checked
  const quoted = (options.prepared ?? Promise.resolve(null)).then((p) =>
    p && p.code === instrument.code ? p : liveQuote(ctx, instrument.code),
  );
  const account = options.account ? Promise.resolve(options.account) : contractAccountOf(ctx, userId);
  quoted.catch(() => {});
  account.catch(() => {});
  const terms = termsOf(instrument, await feeMode(ctx));
  if (!terms) return fail({ instrumentId: "errors.instrument_not_found" });
  const checked = checkPlaceCommand(instrument, command);
  if (!checked.ok) return fail({ [checked.field]: checked.message });
  const { side } = command;
  const { leverage, lots, pending, target, stopLoss, takeProfit } = checked;

  const { quote, stale } = await quoted;
  if (!quote || quote.MarketStatus !== 1) return refuse("errors.market_closed", CONFLICT);
  if (stale) return refuse("errors.prices_stale", CONFLICT);
  const market = priceToSteps(quote.Close, instrument.pricePrecision);
  const price = pending ? target : market;
  if (pending && checkPendingPrice(price, market) !== "ok") {
    const band = pendingPriceBand(market);
    const range = `${stepsToDecimal(band.min, instrument.pricePrecision)} – ${stepsToDecimal(band.max, instrument.pricePrecision)}`;
    return fail({ targetPrice: `errors.price_far|${range}` });
  }
  const sides = checkStopSides(side, price, stopLoss, takeProfit);
  if (!sides.ok) return fail({ [sides.field]: sides.message });
  // an instrument set up past the platform's maximum leverage would open positions liquidated a tick later
  if (
    checkEffectiveLeverage(
      { marginMode: instrument.marginMode, pricePrecision: instrument.pricePrecision, leverages: leverages(instrument) },
      price,
    ) !== "ok"
  ) {
    return refuse(`errors.leverage_too_high|${MAX_EFFECTIVE_LEVERAGE}`);
  }

  const figures = orderFigures(terms, side, lots, price, leverage);
  const contract = await account;
  if (contract === null) return refuse("errors.try_again", CONFLICT);

  const key = `contract_open:${userId}:${command.requestKey || crypto.randomUUID()}`;
  const now = Date.now();
  const write = openOrderWrite(ctx.d1, {
    userId,
    accountId: contract.id,
    isDemo: contract.isDemo,
    instrument,
    contractSize: terms.contractSize,
    side,
    lots,
    pending,
    target,
    market,
    leverage,
    figures,
    stopLoss,
    takeProfit,
    key,
    now,
    sessionId: options.sessionId,
  });
  let row: ContractOrderRow | null = null;
  try {
    const posted = await post(ctx.d1, write);
    row = (posted.results?.[0]?.results?.[0] as ContractOrderRow | undefined) ?? null;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "session_ended") {
      forgetCachedSession(options.sessionId!);
      return refuse("errors.session_invalid", 401);
    }
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail({ lots: "errors.insufficient_balance" }, CONFLICT);
    if (error instanceof LedgerError && error.code === "idempotency_conflict") {
      // the same form submitted twice with other figures (the price moved): the first one stands
    } else throw error;
  }
  // a replayed or doubled submission answers the order it placed the first time
  row ??= await ctx.d1
    .prepare(`SELECT ${ORDER_COLUMNS} FROM contract_orders WHERE open_tx = ${txOfKey("?1")}`)
    .bind(key)
    .first<ContractOrderRow>();
  if (!row) return refuse("errors.try_again", CONFLICT);
  // No notification (except a leader's market order, for its copies): the price read above keeps
  // the market clock running, and the engine reads every row changed since its watermark at the
  // start of each tick (the order is committed now).
  if (options.trader && row.status === OrderStatus.Holding) tellEngine(ctx, [{ op: "upsert", order: engineOrderOf(row) }]);
  return { ok: true, value: withFigures(row, new Map([[instrument.code, quote]]), new Map([[instrument.code, instrument.showCode]])) };
}

/** Closes a holding position at the current price (manual close). */
export async function closeOrder(ctx: ServiceContext, userId: number, id: number): Promise<Outcome<ContractOrderRow>> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return refuse("errors.not_found", GONE);
  // one's own pending order is cancelled, not closed: said plainly
  if (row.status !== OrderStatus.Holding)
    return row.status === OrderStatus.Pending ? refuse("errors.close_pending") : refuse("errors.order_closed", GONE);
  const [{ quote, stale }, contract] = await Promise.all([liveQuote(ctx, row.code), contractAccountOf(ctx, userId)]);
  if (!quote || quote.MarketStatus !== 1) return refuse("errors.market_closed", CONFLICT);
  if (stale) return refuse("errors.prices_stale", CONFLICT);
  if (!contract) return refuse("errors.try_again", CONFLICT);
  const price = priceToSteps(quote.Close, row.precision);
  const realised = realisedProfit(profitOf(row.side, row.openPrice!, price, row.lots, row.contractSize, row.precision), row.margin);
  const key = `contract_exit:${row.id}`;
  const now = Date.now();
  // a copy closing with a profit pays the trader's share (copy trading), in the same transaction
  const share =
    row.followType === 2 && row.followId ? await profitShareFor(ctx, [{ id: row.id, profit: realised }]) : new Map<number, ProfitShare>();
  const paid = share.get(row.id);
  const postings: Posting[] = [
    { accountId: row.accountId, bucket: Bucket.Locked, amount: -row.margin },
    { accountId: row.accountId, bucket: Bucket.Available, amount: row.margin + realised - (paid?.amount ?? 0) },
    { accountId: tradingAccount("counterparty", contract.isDemo), amount: -realised },
    ...(paid ? [{ accountId: paid.traderAccount, amount: paid.amount }] : []),
  ].filter((p) => p.amount !== 0);
  try {
    if (postings.length >= 2) {
      await post(ctx.d1, {
        idempotencyKey: key,
        kind: "trade_settle",
        memo: "memo.contract_manual",
        userId,
        postings,
        guards: [exitGuard(ctx, row.id, OrderStatus.Holding, "manual", price, realised)],
        effects: [
          closeEffect(ctx, row.id, price, realised, "manual", now),
          ...(paid
            ? [ctx.d1.prepare("UPDATE follows SET paid_share = paid_share + ?2 WHERE id = ?1").bind(paid.followId, paid.amount)]
            : []),
          // a trader's own position: the ranking's statistics are recomputed at the next read
          ...(row.followType !== 2 ? [ctx.d1.prepare("UPDATE traders SET stats_at = 0 WHERE user_id = ?1").bind(userId)] : []),
        ],
      });
    } else {
      await ctx.d1.batch([
        exitGuard(ctx, row.id, OrderStatus.Holding, "manual", price, realised),
        closeEffect(ctx, row.id, price, realised, "manual", now),
      ]);
    }
  } catch (error) {
    if (isLostRace(error)) return refuse("errors.order_closed", GONE);
    throw error;
  }
  tellEngine(ctx, [{ op: "remove", id: row.id, price, code: row.code, userId: row.userId }]);
  return { ok: true, value: (await orderRow(ctx, row.id))! };
}

/** Cancels a pending order: its margin and fee go back to the available balance. */
export async function cancelOrder(ctx: ServiceContext, userId: number, id: number): Promise<Outcome<ContractOrderRow>> {
  const row = await ownOrder(ctx, userId, id);
  if (!row) return refuse("errors.not_found", GONE);
  if (row.status !== OrderStatus.Pending)
    return row.status === OrderStatus.Holding ? refuse("errors.order_not_pending") : refuse("errors.order_closed", GONE);
  const key = `contract_pending_exit:${row.id}`;
  const now = Date.now();
  const amount = row.margin + row.fee;
  const guard = exitGuard(ctx, row.id, OrderStatus.Pending, "cancel", null, 0);
  const effect = ctx.d1
    .prepare("UPDATE contract_orders SET status = 4, close_reason = 'cancel', closed_at = ?2, updated_at = ?2 WHERE id = ?1 AND status = 0")
    .bind(row.id, now);
  try {
    if (amount > 0) {
      await post(ctx.d1, {
        idempotencyKey: key,
        kind: "trade_margin",
        memo: "memo.contract_cancel",
        userId,
        postings: [
          { accountId: row.accountId, bucket: Bucket.Locked, amount: -amount },
          { accountId: row.accountId, bucket: Bucket.Available, amount },
        ],
        guards: [guard],
        effects: [effect],
      });
    } else await ctx.d1.batch([guard, effect]);
  } catch (error) {
    if (isLostRace(error)) return refuse("errors.order_closed", GONE);
    throw error;
  }
  tellEngine(ctx, [{ op: "remove", id: row.id, code: row.code, userId: row.userId }]);
  return { ok: true, value: (await orderRow(ctx, row.id))! };
}

/**
 * Tells the engine about a committed change, after the response (the engine also reads every row
 * changed since its watermark at the start of each tick, so it never acts on a tick without it).
 */
function tellEngine(ctx: ServiceContext, changes: EngineChange[]) {
  ctx.waitUntil(notifyEngine(ctx, changes));
}

/** Another path moved the order first (its unique exit key exists): nothing was written. */
function isLostRace(error: unknown) {
  if (error instanceof LedgerError)
    return error.code === "idempotency_conflict" || error.code === "guard_failed" || error.code === "insufficient_funds";
  return String((error as Error)?.message ?? error).includes("UNIQUE constraint failed");
}

/** The unique exit key of a single close or cancel (no batch: its own post()). */
function exitGuard(ctx: ServiceContext, orderId: number, fromStatus: number, reason: ExitReason, price: number | null, realised: number) {
  return ctx.d1
    .prepare("INSERT INTO order_exits (order_id, from_status, reason, price, profit) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(orderId, fromStatus, reason, price, realised);
}

function closeEffect(ctx: ServiceContext, id: number, price: number, realised: number, reason: ExitReason, now: number) {
  return ctx.d1
    .prepare(
      "UPDATE contract_orders SET status = 3, close_price = ?2, profit = ?3, close_reason = ?4, closed_at = ?5, updated_at = ?5 WHERE id = ?1 AND status = 1",
    )
    .bind(id, price, realised, reason, now);
}

/** Sets or clears (0) the stop-loss and take-profit of a holding position, checked against its side and the current price. */
export async function setStops(ctx: ServiceContext, userId: number, command: StopsCommand): Promise<Outcome<ContractOrderRow>> {
  const row = await ownOrder(ctx, userId, command.id);
  if (!row) return refuse("errors.not_found", GONE);
  if (row.status !== OrderStatus.Holding)
    return row.status === OrderStatus.Pending ? refuse("errors.stops_holding_only") : refuse("errors.order_closed", GONE);
  const prices = checkStopPrices(command, row.precision);
  if (!prices.ok) return fail({ [prices.field]: prices.message });
  const { stopLoss, takeProfit } = prices;
  const { quote } = await liveQuote(ctx, row.code);
  if (!quote) return refuse("errors.market_closed", CONFLICT);
  const sides = checkStopSides(row.side, priceToSteps(quote.Close, row.precision), stopLoss, takeProfit);
  if (!sides.ok) return fail({ [sides.field]: sides.message });
  const result = await ctx.d1
    .prepare("UPDATE contract_orders SET stop_loss = ?3, take_profit = ?4, updated_at = ?5 WHERE id = ?1 AND user_id = ?2 AND status = 1")
    .bind(row.id, userId, stopLoss, takeProfit, Date.now())
    .run();
  if (!result.meta.changes) return refuse("errors.order_closed", GONE);
  const updated = (await orderRow(ctx, row.id))!;
  tellEngine(ctx, [{ op: "upsert", order: engineOrderOf(updated) }]);
  return { ok: true, value: updated };
}

/**
 * The signed-in user's orders on whichever platform holds them (ADR 024): this one's ledger, or
 * the backend's calls in upstream mode, whose answers come back as rows with live figures.
 */
export async function placeMyOrder(
  ctx: AppContext,
  user: { id: number; isTrader: boolean },
  command: PlaceCommand,
): Promise<Outcome<ContractOrder>> {
  if (ctx.config.platform.kind !== "upstream") return placeOrder(ctx, user.id, command, { trader: user.isTrader });
  const list = await listInstruments(ctx);
  const placed = await upstreamPlace(ctx, user.id, command, list);
  return placed.ok ? { ok: true, value: await figured(ctx, placed.value) } : placed;
}

export async function closeMyOrder(ctx: AppContext, userId: number, id: number): Promise<Outcome<ContractOrderRow>> {
  if (ctx.config.platform.kind !== "upstream") return closeOrder(ctx, userId, id);
  return upstreamOrderAction(ctx, userId, { kind: "close", id }, await listInstruments(ctx));
}

export async function cancelMyOrder(ctx: AppContext, userId: number, id: number): Promise<Outcome<ContractOrderRow>> {
  if (ctx.config.platform.kind !== "upstream") return cancelOrder(ctx, userId, id);
  return upstreamOrderAction(ctx, userId, { kind: "cancel", id }, await listInstruments(ctx));
}

export async function setMyStops(ctx: AppContext, userId: number, command: StopsCommand): Promise<Outcome<ContractOrderRow>> {
  if (ctx.config.platform.kind !== "upstream") return setStops(ctx, userId, command);
  return upstreamOrderAction(ctx, userId, { kind: "stops", command }, await listInstruments(ctx));
}

async function figured(ctx: ServiceContext, row: ContractOrderRow): Promise<ContractOrder> {
  const [list, market] = await Promise.all([listInstruments(ctx), marketQuotes(ctx)]);
  return withFigures(row, market.quotes, new Map(list.map((i) => [i.code, i.showCode])));
}
