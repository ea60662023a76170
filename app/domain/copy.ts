/**
 * Copy trading rules (issue 11 §2–§3, spec §9 "three-week windows"): the size of a copy, the
 * follow bond cap, the trader statistics, the profit share and the follow form's bounds. Pure and
 * exact: lots as Scaled6, money as micros, rates as hundredths of a percent (12.34 % = 1234).
 * Margins and fees come from app/domain/contract.ts (the same functions as an own order).
 *
 * Worked examples (also in tests/unit/copy-rules.test.ts):
 *   - trader 0.37 lots, multiple 3, lot step 0.1 → 1.11 lots rounded DOWN to the step = 1.1 lots;
 *     trader 0.01 lots, multiple 2, step 0.01, minimum 0.05 → 0.02 lots: skipped (below minimum).
 *   - bond 100 USD, open copies' margin 80 USD, this copy's margin 20 USD → allowed (exactly 100);
 *     20.000001 USD → skipped ("copy.skip_cap").
 *   - closes of +30 and −10 USD on margins of 100 and 100 USD → rate 20/200 = 10.00 %,
 *     win rate 1/2 = 50.00 %, profit 20 USD.
 *   - a copy realising 12.345678 USD with a share of "0.1" pays 1.23 USD (rounded down to the cent).
 */
import {
  MAX_LOTS,
  divRound,
  margin as marginOf,
  fee as feeOf,
  toScaled6,
  parseDecimal,
  type ContractTerms,
  type PriceSteps,
  type Scaled6,
} from "./contract";
import { parseAmount, type Micros } from "./money";

/** The statistics' recent window: three weeks ending now. */
export const THREE_WEEKS_MS = 21 * 24 * 60 * 60 * 1000;
/** The cached statistics are refreshed on demand when older than this. */
export const STATS_TTL_MS = 60_000;
export const MULTIPLE_MIN = 1;
export const MULTIPLE_MAX = 100;
/** The largest profit share an operator may set (50 %). */
export const MAX_PROFIT_SHARE = "0.5";
export const NICKNAME_MAX = 30;

export const ApplicationStatus = { Waiting: 0, Approved: 1, Rejected: 2 } as const;
export const TraderStatus = { Suspended: 0, Active: 1 } as const;
export const FollowStatus = { Ended: 0, Active: 1, Paused: 2 } as const;
/** FollowType of contract_orders. */
export const FollowType = { Own: 1, Copy: 2 } as const;
/** my_deal_follow_order's filter: 1 following (open copies), 3 closed. */
export const FollowOrderFilter = { Following: 1, Closed: 3 } as const;

// ---- the size and cost of a copy ----

export type CopySkip = "copy.skip_min_lots" | "copy.skip_cap" | "copy.skip_balance" | "copy.skip_paused" | "copy.skip_suspended";

/**
 * Copy lots = trader lots × multiple, rounded DOWN to the instrument's lot step (Pip), at most
 * MAX_LOTS (also on the step); null (skipped) when below ForexMinCont or zero.
 */
export function copyLots(traderLots: Scaled6, multiple: number, lotStep: string, minLots: string): Scaled6 | null {
  if (!Number.isSafeInteger(traderLots) || traderLots <= 0 || !Number.isInteger(multiple) || multiple < 1) return null;
  const step = BigInt(toScaled6(lotStep) ?? 0) || 1n;
  const raw = BigInt(traderLots) * BigInt(multiple);
  const capped = raw > BigInt(MAX_LOTS) ? BigInt(MAX_LOTS) : raw;
  const lots = Number((capped / step) * step);
  const min = toScaled6(minLots) ?? 0;
  return lots <= 0 || lots < min ? null : lots;
}

/** The follow bond cap: the margin of the follower's open copies of this trader plus this copy's margin stays within the bond. */
export function withinBond(openCopyMargin: Micros, copyMargin: Micros, maxAmount: Micros): boolean {
  return openCopyMargin + copyMargin <= maxAmount;
}

export interface CopyPlan {
  lots: Scaled6;
  margin: Micros;
  fee: Micros;
}

/**
 * One follower's copy of a trader's fill: its lots (rounding), margin and fee at the trader's
 * fill price and leverage, and whether the bond cap and the follower's available contract
 * balance allow it. The engine runs the same checks in SQL (set-based); this is the reference.
 */
export function planCopy(
  terms: ContractTerms,
  trader: { lots: Scaled6; price: PriceSteps; leverage: number },
  instrument: { lotStep: string; minLots: string },
  follow: { multiple: number; maxAmount: Micros; openCopyMargin: Micros; available: Micros },
): { ok: true; plan: CopyPlan } | { ok: false; skip: CopySkip } {
  const size = copySize(terms, trader, instrument, follow.multiple);
  if (size === null) return { ok: false, skip: "copy.skip_min_lots" };
  const skip = copyRefusal(size, follow);
  return skip ? { ok: false, skip } : { ok: true, plan: size };
}

/**
 * planCopy's first half, the same for every follower with the same multiple (the engine works it
 * out once per multiple): the copy's lots, margin and fee; null below the minimum lots.
 */
export function copySize(
  terms: ContractTerms,
  trader: { lots: Scaled6; price: PriceSteps; leverage: number },
  instrument: { lotStep: string; minLots: string },
  multiple: number,
): CopyPlan | null {
  const lots = copyLots(trader.lots, multiple, instrument.lotStep, instrument.minLots);
  if (lots === null) return null;
  const margin = marginOf(terms, lots, trader.price, trader.leverage);
  return { lots, margin, fee: feeOf(terms, lots, margin) };
}

/** planCopy's second half: why the follow cannot take a copy of this size (bond cap, balance), or null. */
export function copyRefusal(size: CopyPlan, follow: { maxAmount: Micros; openCopyMargin: Micros; available: Micros }): CopySkip | null {
  if (!withinBond(follow.openCopyMargin, size.margin, follow.maxAmount)) return "copy.skip_cap";
  if (size.margin + size.fee > follow.available) return "copy.skip_balance";
  return null;
}

/** The copy stop-loss: reached when the combined profit of a follow's copies is a loss of at least the limit (0 = none). */
export function copyStopReached(combinedProfit: Micros, copyStopLoss: Micros): boolean {
  return copyStopLoss > 0 && -combinedProfit >= copyStopLoss;
}

// ---- statistics ----

export interface ClosedTrade {
  profit: Micros;
  margin: Micros;
  closedAt: number;
}

export interface WindowStats {
  /** Realised profit ÷ margin used, hundredths of a percent (0 without trades). */
  rate: number;
  /** Winning closes ÷ closes, hundredths of a percent (0 without trades). */
  win: number;
  /** Σ realised profit (micros). */
  profit: Micros;
  /** Closed orders counted. */
  count: number;
}

export interface TraderStats {
  threeWeek: WindowStats;
  total: WindowStats;
}

/** A ratio as hundredths of a percent, half away from zero; 0 when the base is 0. */
export function ratioHundredths(part: number, whole: number): number {
  if (whole === 0) return 0;
  return Number(divRound(BigInt(part) * 10_000n, BigInt(whole)));
}

/** The sums of a window (as SQL aggregates them: Σ profit, Σ margin, winning closes, closes) → its figures. */
export interface WindowSums {
  profit: Micros;
  margin: Micros;
  wins: number;
  count: number;
}

export function statsFromSums(sums: WindowSums): WindowStats {
  return {
    rate: ratioHundredths(sums.profit, sums.margin),
    win: ratioHundredths(sums.wins, sums.count),
    profit: sums.profit,
    count: sums.count,
  };
}

export function windowStats(trades: readonly ClosedTrade[]): WindowStats {
  const sums: WindowSums = { profit: 0, margin: 0, wins: 0, count: trades.length };
  for (const t of trades) {
    sums.profit += t.profit;
    sums.margin += t.margin;
    if (t.profit > 0) sums.wins += 1;
  }
  return statsFromSums(sums);
}

/**
 * The ranking's figures: the three weeks ending `now` (closed after now − 21 days, up to now) and
 * all time. Production sums the windows in SQL (services/copy/queries.server.ts refreshTraderStats,
 * through `statsFromSums`); tests/integration/copy-stats.test.ts holds that SQL equal to this rule.
 */
export function traderStats(trades: readonly ClosedTrade[], now: number): TraderStats {
  const from = now - THREE_WEEKS_MS;
  return {
    threeWeek: windowStats(trades.filter((t) => t.closedAt > from && t.closedAt <= now)),
    total: windowStats(trades.filter((t) => t.closedAt <= now)),
  };
}

// ---- profit share ----

const CENT: bigint = 10_000n;

/** The trader's share of a copy's realised profit: profit × share rounded DOWN to the cent; 0 when the profit is 0 or a loss. */
export function profitShareOf(realisedProfit: Micros, share: string): Micros {
  const rate = parseDecimal(share);
  if (!rate || realisedProfit <= 0) return 0;
  const micros = (BigInt(realisedProfit) * rate.units) / 10n ** BigInt(rate.scale);
  return Number((micros / CENT) * CENT);
}

/** A profit share typed by an operator as a percentage ("10", "12.5"), 0–50 with at most 2 decimals, as the stored decimal ("0.1", "0.125"); null otherwise. */
export function sharePercentToDecimal(input: string): string | null {
  const m = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(input.trim());
  if (!m) return null;
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (hundredths > 5000) return null;
  // hundredths of a percent → a decimal with up to 4 decimals (below 1, since at most 50 %)
  if (hundredths === 0) return "0";
  return `0.${String(hundredths).padStart(4, "0").replace(/0+$/, "")}`;
}

/** A stored share ("0.125") as a percentage text ("12.5"). */
export function shareDecimalToPercent(share: string): string {
  const d = parseDecimal(share);
  if (!d) return "0";
  // share × 100 with scale-2 decimals
  const scaled = d.units * 100n;
  const scale = d.scale;
  const whole = scaled / 10n ** BigInt(scale);
  const frac = (scaled % 10n ** BigInt(scale)).toString().padStart(scale, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

// ---- the follow form ----

export type MultipleCheck = "ok" | "copy.multiple_required" | "copy.multiple_invalid" | "copy.multiple_range";

/** The multiple as typed: digits only, 1–100. */
export function checkMultiple(input: string): { check: MultipleCheck; multiple: number } {
  const text = input.trim();
  if (text === "") return { check: "copy.multiple_required", multiple: 0 };
  if (!/^\d+$/.test(text)) return { check: "copy.multiple_invalid", multiple: 0 };
  // a whole number too long to be one we offer is simply out of range
  if (text.replace(/^0+(?=\d)/, "").length > 9) return { check: "copy.multiple_range", multiple: 0 };
  const multiple = Number(text);
  if (multiple < MULTIPLE_MIN || multiple > MULTIPLE_MAX) return { check: "copy.multiple_range", multiple };
  return { check: "ok", multiple };
}

/** A typed field of a command: its value, or the i18n key of why the input is not one. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The maximum follow bond as typed: USD above 0 with at most 2 decimals. A well-formed amount too
 * large to hold is certainly more than the follower's balance.
 */
export function checkBond(input: string): Checked<Micros> {
  const text = input.trim();
  if (text === "") return { ok: false, error: "copy.bond_required" };
  const bond = parseAmount(text, 2);
  if (bond === null && /^\d+(\.\d{1,2})?$/.test(text)) return { ok: false, error: "copy.bond_above_balance" };
  if (bond === null || bond <= 0) return { ok: false, error: "copy.bond_invalid" };
  return { ok: true, value: bond };
}

/** A copy stop-loss as typed: USD with at most 2 decimals; empty is 0 (none). */
export function checkCopyStop(input: string): Checked<Micros> {
  const text = input.trim();
  const amount = text === "" ? 0 : parseAmount(text, 2);
  return amount === null ? { ok: false, error: "copy.stop_invalid" } : { ok: true, value: amount };
}

// ---- the commands (typed by app/forms/copy.ts, carried out by app/services/copy/) ----

/** A trader as a command names them: null when the input was not an id (answered like an unknown trader). */
export interface TraderRef {
  traderId: number | null;
}

/** Following a trader: the multiple and the bond as the rules above checked them. */
export interface FollowCommand extends TraderRef {
  multiple: ReturnType<typeof checkMultiple>;
  maxAmount: Checked<Micros>;
}

/** What becomes of a follow's open copies when it ends: closed now, or let run. */
export type OpenCopies = "close" | "keep";

export interface UnfollowCommand extends TraderRef {
  open: OpenCopies;
}

export interface PauseCommand extends TraderRef {
  paused: boolean;
}

export interface CopyStopCommand extends TraderRef {
  copyStopLoss: Checked<Micros>;
}

export interface ApplyCommand {
  agree: boolean;
}

/** An operator's decision on one application (the decision itself comes from the button pressed). */
export interface ReviewInput {
  id: number;
  reason?: string;
}

/** Suspending (a reason required) or resuming a trader (the choice comes from the button pressed). */
export interface TraderStatusInput {
  traderId: number;
  reason?: string;
}

/** A trader's profit share, already the stored decimal ("0.125" for 12.5 %). */
export interface ProfitShareCommand {
  traderId: number;
  share: string;
}

/** The return of a follower's copies: realised profit ÷ margin used, hundredths of a percent. */
export function followerReturn(profit: Micros, marginUsed: Micros): number {
  return ratioHundredths(profit, marginUsed);
}
