/**
 * Timed options as the pages and the JSON API see them, derived from the drizzle schema: the
 * terms on offer, the option row as stored and the views the pages render. Types only, shared
 * with the components (type imports): nothing here runs.
 */
import type { RowOf } from "~/db/columns";
import type { Micros } from "~/domain/money";
import type { Direction } from "~/domain/option";
import type { DURATION_COLUMNS, OPTION_COLUMNS } from "./columns";

/** A duration on offer (spec §7 get_seconds: Seconds, ProfitRatio, LimitAmount). */
export type Duration = RowOf<typeof DURATION_COLUMNS>;

/** The durations, the preset stakes and what a wrong option costs (0 the stake, 1 the profit figure: base setting micro_loss_level). */
export interface OptionTerms<D extends Duration = Duration> {
  durations: D[];
  amounts: Micros[];
  lossLevel: number;
}

/** An option as stored, as OPTION_COLUMNS reads it (every column but the opening transaction's id). */
export type OptionRow = Omit<RowOf<typeof OPTION_COLUMNS>, "direction"> & { direction: Direction };

/** An option as the pages show it (prices in steps, money in micros): what the browser needs of the row, with its instrument's name. */
export type OptionView = Pick<
  OptionRow,
  | "id"
  | "code"
  | "direction"
  | "amount"
  | "profitRatio"
  | "seconds"
  | "lossLevel"
  | "precision"
  | "openPrice"
  | "openTickAt"
  | "openFeed"
  | "expiresAt"
  | "status"
  | "endPrice"
  | "endTickAt"
  | "endFeed"
  | "late"
  | "profit"
  | "createdAt"
  | "settledAt"
> & { showCode: string };

/** An option in transaction as the trade page's panel shows it. */
export type OpenOptionView = Pick<OptionRow, "id" | "direction" | "amount" | "expiresAt">;

/** The option just bought, as the confirmation shows it. */
export type BoughtOptionView = Pick<
  OptionRow,
  "id" | "direction" | "amount" | "seconds" | "profitRatio" | "openPrice" | "precision" | "expiresAt"
> & {
  showCode: string;
};
