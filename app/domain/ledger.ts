/** The ledger's vocabulary shared by services and screens (no I/O). */

/** Every kind of ledger transaction (each has a translated label, `ledger_kind.<kind>`, for the account log). */
export const LEDGER_KINDS = [
  "demo_grant",
  "demo_reset",
  "deposit",
  "withdraw",
  "withdraw_refund",
  "transfer",
  "trade_margin",
  "trade_fee",
  "trade_settle",
  "option_stake",
  "option_settle",
  "loan",
  "loan_repay",
  "fund_subscribe",
  "fund_redeem",
  "fund_income",
  "demo_expire",
  "adjustment",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
