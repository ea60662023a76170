/**
 * Contract trading rules (spec §9, issue 8): margin, fee, prepayment ratio, profit, net value,
 * risk rate and liquidation price, in exact integers. Shared by the browser's preview, the
 * services and the market room's engine. Pure: no I/O.
 *
 * Units:
 *   - prices are integer steps of 10^-pricePrecision (`PriceSteps`);
 *   - lots and units per lot are integers of 10^-6 (`Scaled6`: 0.01 lots = 10_000);
 *   - money is integer micro-USD (`Micros`);
 *   - intermediate products are BigInt (lots × units × price passes 2^53 easily).
 *
 * One written rounding rule per figure:
 *   - margin, fee, notional, profit: to the micro (6 decimals), half away from zero;
 *   - liquidation price: the distance open → liquidation is rounded DOWN to a price step, so the
 *     position is liquidated at or just before its loss reaches its margin (never after);
 *   - prepayment ratio and risk rate: percentages with 2 decimals, half away from zero.
 */
import type { Micros } from "./money";

export type PriceSteps = number;
export type Scaled6 = number;

export const SCALE6 = 1_000_000;
const B6 = 1_000_000n;

export const Side = { Buy: 1, Sell: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Spec §3 contract order Status. Cancelled pending orders keep a row (4) but leave every list but history. */
export const OrderStatus = { Pending: 0, Holding: 1, Closed: 3, Cancelled: 4 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** Why an order left its state. */
export const EXIT_REASONS = ["manual", "stop_loss", "take_profit", "liquidation", "delivery", "reset", "cancel", "fill"] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

/** The largest order: 1,000 lots (a typo guard, not a risk limit). */
export const MAX_LOTS: Scaled6 = 1000 * SCALE6;

// ---- exact decimals ----

const DECIMAL_RE = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

/** A non-negative decimal string as units of 10^-scale ("0.0005" → {units: 5n, scale: 4}); null if malformed. */
export function parseDecimal(input: string): { units: bigint; scale: number } | null {
  const m = DECIMAL_RE.exec(input.trim());
  if (!m) return null;
  const frac = m[2] ?? "";
  return { units: BigInt(m[1] + frac), scale: frac.length };
}

/** A decimal string with at most `maxDecimals` decimals as an integer of 10^-maxDecimals; null if malformed or too precise. */
export function parseScaled(input: string, maxDecimals: number): number | null {
  const d = parseDecimal(input);
  if (!d || d.scale > maxDecimals) return null;
  const value = d.units * 10n ** BigInt(maxDecimals - d.scale);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : null;
}

/** Lots / units per lot ("0.01", "100000") as Scaled6; null if malformed or finer than 10^-6. */
export function toScaled6(input: string): Scaled6 | null {
  return parseScaled(input, 6);
}

/** A typed price ("1.16245") as steps of its precision; null if malformed or too precise. */
export function parsePrice(input: string, precision: number): PriceSteps | null {
  return parseScaled(input, precision);
}

/** Integer division rounded half away from zero. */
export function divRound(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError("division by zero");
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = abs / d;
  const r = abs - q * d;
  const rounded = r * 2n >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}

function toSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount out of range");
  return Number(value);
}

const pow10 = (n: number) => 10n ** BigInt(n);

// ---- the figures ----

export interface ContractTerms {
  /** MarginMode: 1 = fixed margin per lot (lots × units per lot), otherwise notional ÷ leverage. */
  marginMode: number;
  /** ForexContNum as Scaled6. */
  contractSize: Scaled6;
  pricePrecision: number;
  /** ForexFeeRate as an exact decimal string. */
  feeRate: string;
  /** trade_fee_type: 1 = lots × rate, otherwise margin × rate. */
  feeMode: number;
}

/** Notional value: lots × units per lot × price (micros). 0.01 lots × 100000 × 1.16245 = 1,162.45 USD. */
export function notional(lots: Scaled6, contractSize: Scaled6, price: PriceSteps, precision: number): Micros {
  // lots·units are 10^-12, price 10^-precision; micros are 10^-6.
  return toSafe(divRound(BigInt(lots) * BigInt(contractSize) * BigInt(price), B6 * pow10(precision)));
}

/**
 * Margin (CautionMoney), 6 decimals. MarginMode 1: lots × units per lot (0.5 lots × 1 = 0.5 USD
 * per …); otherwise lots × units per lot × price ÷ leverage (0.01 × 100000 × 1.16245 ÷ 100 = 11.6245).
 */
export function margin(
  terms: Pick<ContractTerms, "marginMode" | "contractSize" | "pricePrecision">,
  lots: Scaled6,
  price: PriceSteps,
  leverage: number,
): Micros {
  if (terms.marginMode === 1) return toSafe(divRound(BigInt(lots) * BigInt(terms.contractSize), B6));
  if (!Number.isInteger(leverage) || leverage <= 0) throw new RangeError("leverage required");
  return toSafe(divRound(BigInt(lots) * BigInt(terms.contractSize) * BigInt(price), B6 * pow10(terms.pricePrecision) * BigInt(leverage)));
}

/** Fee (TradeFee), 6 decimals. trade_fee_type 1: lots × rate; otherwise margin × rate. */
export function fee(terms: Pick<ContractTerms, "feeRate" | "feeMode">, lots: Scaled6, marginMicros: Micros): Micros {
  const rate = parseDecimal(terms.feeRate);
  if (!rate) throw new RangeError("bad fee rate");
  // lots × rate USD: lots are 10^-6, so lots·rate in micro-USD is lots·rate.units / 10^scale.
  const base = terms.feeMode === 1 ? BigInt(lots) : BigInt(marginMicros);
  return toSafe(divRound(base * rate.units, pow10(rate.scale)));
}

/** A percentage with 2 decimals as an integer of hundredths (12.34 % = 1234); null when the base is 0. */
function percentHundredths(part: bigint, whole: bigint): number | null {
  if (whole === 0n) return null;
  return toSafe(divRound(part * 10_000n, whole));
}

/** Prepayment ratio: margin ÷ notional, as hundredths of a percent (1 % = 100). */
export function prepaymentRatio(marginMicros: Micros, notionalMicros: Micros): number | null {
  return percentHundredths(BigInt(marginMicros), BigInt(notionalMicros));
}

/**
 * Profit (FactProfits while holding), 6 decimals: (price − open) × lots × units per lot for a
 * buy, the opposite for a sell. Buy 0.01 EUR/USD at 1.16245 (contract 100000), price 1.16345:
 * 0.001 × 1000 = +1.00 USD.
 */
export function profit(side: Side, open: PriceSteps, price: PriceSteps, lots: Scaled6, contractSize: Scaled6, precision: number): Micros {
  const diff = BigInt(side === Side.Buy ? price - open : open - price);
  return toSafe(divRound(diff * BigInt(lots) * BigInt(contractSize), B6 * pow10(precision)));
}

/** The profit a position realises: never below −margin (negative balance protection). */
export function realisedProfit(rawProfit: Micros, marginMicros: Micros): Micros {
  return Math.max(rawProfit, -marginMicros);
}

/** Net value = margin + profit. */
export function netValue(marginMicros: Micros, profitMicros: Micros): Micros {
  return marginMicros + profitMicros;
}

/** Risk rate ("hazard rate"): net value ÷ margin × 100, as hundredths of a percent. 0 or less means liquidation. */
export function riskRate(marginMicros: Micros, profitMicros: Micros): number | null {
  return percentHundredths(BigInt(netValue(marginMicros, profitMicros)), BigInt(marginMicros));
}

/**
 * The liquidation price fixed at opening: open − margin ÷ (lots × units) for a buy, open +
 * margin ÷ (lots × units) for a sell; the distance rounded down to a price step. A buy whose
 * liquidation price would be 0 or less cannot be liquidated (null).
 */
export function liquidationPrice(
  side: Side,
  open: PriceSteps,
  marginMicros: Micros,
  lots: Scaled6,
  contractSize: Scaled6,
  precision: number,
): PriceSteps | null {
  const size = BigInt(lots) * BigInt(contractSize);
  if (size === 0n) return null;
  // distance in steps = margin[10^-6] × 10^12 / size[10^-12] × 10^precision / 10^6
  const distance = toSafe((BigInt(marginMicros) * B6 * pow10(precision)) / size);
  const level = side === Side.Buy ? open - distance : open + distance;
  return level > 0 ? level : null;
}

/** Whether a position is due for liquidation at `price` (its loss reached its margin). */
export function isLiquidated(side: Side, liquidation: PriceSteps | null, price: PriceSteps): boolean {
  if (liquidation === null) return false;
  return side === Side.Buy ? price <= liquidation : price >= liquidation;
}

// ---- effective leverage (an instrument's setup) ----

/**
 * The largest effective leverage (notional ÷ margin) an instrument's setup may give a position:
 * 200×, the largest multiple the platform offers (forex). A position at 200× holds 0.5 % of its
 * worth as margin, so its liquidation price lies at least 0.5 % from the open; past it the
 * liquidation sits a tick or two away and positions are closed before their owner can act.
 */
export const MAX_EFFECTIVE_LEVERAGE = 200;

export type LeverageCheck = "ok" | "leverage_too_high";

/**
 * Whether an instrument's setup stays within MAX_EFFECTIVE_LEVERAGE at `price` (steps).
 * MarginMode 1 holds 1 USD per unit (lots × units per lot) against a notional of lots × units ×
 * price: its effective leverage is the price itself, whatever the lots. Otherwise the margin is
 * the notional ÷ the chosen multiple: the effective leverage is the multiple, so every offered
 * multiple must be within the maximum. Exact: the price is compared in steps.
 */
export function checkEffectiveLeverage(
  setup: { marginMode: number; pricePrecision: number; leverages: readonly number[] },
  price: PriceSteps,
): LeverageCheck {
  if (setup.marginMode === 1)
    return BigInt(price) > BigInt(MAX_EFFECTIVE_LEVERAGE) * pow10(setup.pricePrecision) ? "leverage_too_high" : "ok";
  return setup.leverages.some((m) => m > MAX_EFFECTIVE_LEVERAGE) ? "leverage_too_high" : "ok";
}

// ---- stop-loss and take-profit ----

export type StopCheck = "ok" | "stop_loss_side" | "take_profit_side";

/**
 * Stop-loss and take-profit must lie on their side of the reference price (the current price,
 * or the pending order's buy price): for a buy the stop-loss below and the take-profit above,
 * for a sell the opposite. 0 means none.
 */
export function checkStops(side: Side, reference: PriceSteps, stopLoss: PriceSteps, takeProfit: PriceSteps): StopCheck {
  if (stopLoss > 0 && (side === Side.Buy ? stopLoss >= reference : stopLoss <= reference)) return "stop_loss_side";
  if (takeProfit > 0 && (side === Side.Buy ? takeProfit <= reference : takeProfit >= reference)) return "take_profit_side";
  return "ok";
}

/**
 * A pending order's buy price must lie within a band around the market: from a tenth of it to
 * ten times it (both included). Further out it is a typing slip, never a trade, and its figures
 * could pass what a safe integer holds.
 */
export const PENDING_PRICE_BAND = 10n;

export function pendingPriceBand(market: PriceSteps): { min: PriceSteps; max: PriceSteps } {
  const m = BigInt(market);
  const min = (m + PENDING_PRICE_BAND - 1n) / PENDING_PRICE_BAND; // rounded up: never below a tenth
  return { min: Math.max(1, Number(min)), max: toSafe(m * PENDING_PRICE_BAND) };
}

export function checkPendingPrice(price: PriceSteps, market: PriceSteps): "ok" | "price_far" {
  const { min, max } = pendingPriceBand(market);
  return price >= min && price <= max ? "ok" : "price_far";
}

// ---- the order preview (browser) and the order's figures (server): one function ----

export interface OrderFigures {
  margin: Micros;
  fee: Micros;
  notional: Micros;
  /** Hundredths of a percent. */
  prepaymentRatio: number | null;
  liquidation: PriceSteps | null;
}

export function orderFigures(terms: ContractTerms, side: Side, lots: Scaled6, price: PriceSteps, leverage: number): OrderFigures {
  const m = margin(terms, lots, price, leverage);
  const n = notional(lots, terms.contractSize, price, terms.pricePrecision);
  return {
    margin: m,
    fee: fee(terms, lots, m),
    notional: n,
    prepaymentRatio: prepaymentRatio(m, n),
    liquidation: liquidationPrice(side, price, m, lots, terms.contractSize, terms.pricePrecision),
  };
}

/** Steps as a decimal string at the instrument's precision (e.g. 116245 at 5 → "1.16245"). */
export function stepsToDecimal(steps: PriceSteps, precision: number): string {
  const negative = steps < 0;
  const abs = String(Math.abs(steps)).padStart(precision + 1, "0");
  const text = precision > 0 ? `${abs.slice(0, -precision)}.${abs.slice(-precision)}` : abs;
  return negative ? `-${text}` : text;
}

/** Scaled6 as a trimmed decimal string (10_000 → "0.01"). */
export function scaled6ToDecimal(value: Scaled6): string {
  return stepsToDecimal(value, 6).replace(/\.?0+$/, "");
}

/** Hundredths of a percent as "12.34". */
export function hundredthsToPercent(value: number): string {
  return stepsToDecimal(value, 2);
}

// ---- lots ----

export type LotsCheck = "ok" | "lots_required" | "lots_invalid" | "lots_step" | "lots_min" | "lots_max";

/** Lots as typed: positive, a multiple of the lot step (Pip), at least ForexMinCont, at most MAX_LOTS. */
export function checkLots(input: string, lotStep: string, minLots: string): { check: LotsCheck; lots: Scaled6 } {
  if (input.trim() === "") return { check: "lots_required", lots: 0 };
  const lots = toScaled6(input);
  if (lots === null || lots <= 0) return { check: "lots_invalid", lots: 0 };
  const step = toScaled6(lotStep) ?? 0;
  if (step > 0 && lots % step !== 0) return { check: "lots_step", lots };
  if (lots < (toScaled6(minLots) ?? 0)) return { check: "lots_min", lots };
  if (lots > MAX_LOTS) return { check: "lots_max", lots };
  return { check: "ok", lots };
}

// ---- the engine's crossing rule ----

/**
 * Which way a price must move to fire a trigger: "down" fires when the price falls to or below
 * the level (a buy's stop-loss and liquidation, a sell's take-profit, a pending order placed
 * below the market), "up" when it rises to or above it.
 */
export type Crossing = "up" | "down";

export function exitCrossing(side: Side, kind: "stop_loss" | "take_profit" | "liquidation"): Crossing {
  const down = side === Side.Buy ? kind !== "take_profit" : kind === "take_profit";
  return down ? "down" : "up";
}

/** A pending order fills when the price comes back to its buy price, from wherever it was placed. */
export function pendingCrossing(level: PriceSteps, market: PriceSteps): Crossing {
  return level <= market ? "down" : "up";
}

/**
 * The price a trigger executes at, given the range of prices the tick saw: the level itself when
 * the price passed through it, else (a gap: the whole range lies beyond the level) the first
 * price of the range.
 */
export function executionPrice(level: PriceSteps, range: { open: PriceSteps; low: PriceSteps; high: PriceSteps }): PriceSteps {
  return level >= range.low && level <= range.high ? level : range.open;
}

// ---- delivery contracts ----

const DAY_MS = 86_400_000;
/** Deliveries fall on a Friday at 20:00 UTC (1970-01-02 was a Friday), every `days` days from there. */
const DELIVERY_ANCHOR = Date.UTC(1970, 0, 2, 20);

/** The first delivery instant strictly after `after` for a contract delivering every `days` days. */
export function nextDelivery(days: number, after: number): number {
  const every = days * DAY_MS;
  return DELIVERY_ANCHOR + (Math.floor((after - DELIVERY_ANCHOR) / every) + 1) * every;
}
