/**
 * The contract order's select list, read from the drizzle schema (app/db/columns.ts): every column
 * but the opening transaction's id. Its own module so that the types-only views.ts derives the
 * row type from it without reaching the server modules.
 */
import { columnListExcept } from "~/db/columns";
import { contractOrders } from "~/db/schema";

export const ORDER_COLUMNS = columnListExcept(contractOrders, ["openTx"]);
