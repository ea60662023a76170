/**
 * The contract between the market room's clock and the order engine (ARCHITECTURE.md, "The
 * engine"): what a tick tells the engine, what the engine answers, and how services tell the
 * room that a trigger changed after they committed. Pure types and helpers; no I/O.
 */
import type { UserTopic } from "./protocol";

/**
 * Every price an instrument traded at since the previous tick, as a range: the engine fires a
 * trigger when its level lies within [low, high]. `open` is the first of those prices and
 * `last` the current one. An instrument that produced no price since the previous tick is absent.
 */
export interface PriceRange {
  code: string;
  open: number;
  low: number;
  high: number;
  last: number;
}

export interface TickInput {
  /** The tick's time (ms); prices in the ranges were produced in (since, time]. */
  time: number;
  since: number;
  /** True when the room was away (idle, restarted) and the ranges span more than one second. */
  catchUp: boolean;
  ranges: PriceRange[];
}

/** A per-user push the room delivers after the engine's batch commits. */
export interface UserEvent {
  userId: number;
  topic: UserTopic;
  data: unknown;
}

export interface TickOutput {
  userEvents: UserEvent[];
}

/** What an order waits for: a price level, or (options) an instant. */
export type TriggerKind = "pending" | "stop_loss" | "take_profit" | "liquidation" | "expiry";

/** A committed change that the engine's index should reflect (set on place/modify, cleared on close/cancel). */
export interface TriggerChange {
  kind: TriggerKind;
  /** The order (or option) id. */
  id: number;
  code: string;
  /** The trigger price, or the expiry instant (ms) for "expiry". 0 or null clears the trigger. */
  level: number | null;
}

export function triggerKey(change: Pick<TriggerChange, "kind" | "id">) {
  return `${change.kind}:${change.id}`;
}

/** Merges a price into a range (or starts one). */
export function widen(range: PriceRange | undefined, code: string, price: number): PriceRange {
  if (!range) return { code, open: price, low: price, high: price, last: price };
  range.low = Math.min(range.low, price);
  range.high = Math.max(range.high, price);
  range.last = price;
  return range;
}
