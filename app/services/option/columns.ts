/**
 * Timed options' select lists, read from the drizzle schema (app/db/columns.ts): the option row
 * (every column but the opening transaction's id) and the durations (as offered, and every column
 * for the console). Their own module so that the types-only views.ts derives its row types from
 * them without reaching the server modules.
 */
import { columnList, columnListExcept } from "~/db/columns";
import { optionDurations, options } from "~/db/schema";

export const OPTION_COLUMNS = columnListExcept(options, ["openTx"]);

/** A duration as offered (spec §7 get_seconds: Seconds, ProfitRatio, LimitAmount). */
export const DURATION_COLUMNS = columnList(optionDurations, ["id", "seconds", "profitRatio", "minAmount"]);
/** A duration as the console edits it: every column. */
export const ALL_DURATION_COLUMNS = columnListExcept(optionDurations, []);
