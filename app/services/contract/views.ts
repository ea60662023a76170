/**
 * The contract order as the pages and the JSON API see it, derived from the drizzle schema: the
 * row as stored, the row with its live figures, and the view the pages render. Types only, shared
 * with the components (type imports): nothing here runs.
 */
import type { RowOf } from "~/db/columns";
import type { OrderStatus, Side } from "~/domain/contract";
import type { Micros } from "~/domain/money";
import type { ORDER_COLUMNS } from "./columns";

/** A contract order row as stored, as ORDER_COLUMNS reads it (every column but the opening transaction's id). */
export type ContractOrderRow = Omit<RowOf<typeof ORDER_COLUMNS>, "side" | "status"> & { side: Side; status: OrderStatus };

/** An order with its live figures (holding: at the current price; closed: as realised). */
export interface ContractOrder extends ContractOrderRow {
  showCode: string;
  /** Mark price (steps) used for `currentProfit`: the current price while holding, the close price after. */
  markPrice: number | null;
  currentProfit: Micros;
}

/** A contract order as the pages show it (spec §3; prices in steps, money in micros): FactProfits as `profit`, and a copy's trader. */
export type OrderView = Pick<
  ContractOrder,
  | "id"
  | "code"
  | "showCode"
  | "side"
  | "status"
  | "lots"
  | "precision"
  | "leverage"
  | "originPrice"
  | "openPrice"
  | "closePrice"
  | "markPrice"
  | "stopLoss"
  | "takeProfit"
  | "liquidation"
  | "margin"
  | "fee"
  | "closeReason"
  | "createdAt"
  | "filledAt"
  | "closedAt"
> & {
  /** FactProfits: live while holding, realised once closed. */
  profit: Micros;
  /** A copied order (FollowType 2): its trader's name. */
  copiedFrom?: string | null;
};
