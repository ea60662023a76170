/**
 * D1 schema (drizzle). Money columns are INTEGER micro-USD (1 USD = 1_000_000), see
 * docs/decisions/003-money.md; configuration decimals (fee rates, lot steps, prices of the
 * instrument table) are TEXT decimal strings parsed by app/lib/decimal.ts. Never REAL.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

/** Tenants. type 0 is the main site. status 0 sends visitors to loss_url. */
export const companies = sqliteTable("companies", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  logo: text("logo").notNull().default(""),
  url: text("url").notNull().default(""),
  subject: text("subject").notNull().default(""),
  registeredAddress: text("registered_address").notNull().default(""),
  location: text("location").notNull().default(""),
  email: text("email").notNull().default(""),
  status: integer("status").notNull().default(1),
  type: integer("type").notNull().default(0),
  lossUrl: text("loss_url").notNull().default(""),
  createdAt: createdAt(),
});

/** Base settings of spec §3, one row per company, plus the demo account's starting balances. */
export const baseSettings = sqliteTable("base_settings", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id),
  serviceLink: text("service_link").notNull().default(""),
  serviceLinkType: integer("service_link_type").notNull().default(1),
  verifyRegType: integer("verify_reg_type").notNull().default(1),
  tradeFeeType: integer("trade_fee_type").notNull().default(2),
  microLossLevel: integer("micro_loss_level").notNull().default(0),
  demoFundingBalance: integer("demo_funding_balance").notNull().default(0),
  demoOptionsBalance: integer("demo_options_balance").notNull().default(0),
  demoContractBalance: integer("demo_contract_balance").notNull().default(0),
});

export const areas = sqliteTable("areas", {
  id: integer("id").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
  globalCode: text("global_code").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: text("uid").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    email: text("email"),
    mobile: text("mobile"),
    areaId: integer("area_id").references(() => areas.id),
    passwordHash: text("password_hash"),
    inviteCode: text("invite_code").notNull(),
    referrerId: integer("referrer_id"),
    isTrader: integer("is_trader").notNull().default(0),
    isDemo: integer("is_demo").notNull().default(0),
    demoId: text("demo_id"),
    role: text("role", { enum: ["user", "operator"] }).notNull().default("user"),
    status: integer("status").notNull().default(1),
    nickname: text("nickname").notNull().default(""),
    lang: text("lang").notNull().default("hk"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_uid").on(t.uid),
    uniqueIndex("users_email").on(t.email),
    uniqueIndex("users_mobile").on(t.mobile),
    uniqueIndex("users_invite_code").on(t.inviteCode),
    uniqueIndex("users_demo_id").on(t.demoId),
    index("users_referrer").on(t.referrerId),
  ],
);

/** Server-side sessions: id is the SHA-256 of the opaque token, so a database leak gives no tokens. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** One-time codes sent by e-mail or SMS. Only a hash of the code is stored. */
export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    target: text("target").notNull(),
    purpose: text("purpose", { enum: ["register", "reset", "amend"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("verification_codes_target").on(t.target, t.purpose, t.id)],
);

export const captchas = sqliteTable("captchas", {
  id: text("id").primaryKey(),
  answerHash: text("answer_hash").notNull(),
  expiresAt: integer("expires_at").notNull(),
  consumedAt: integer("consumed_at"),
  createdAt: createdAt(),
});

/** Durable fixed-window counters for throttling (failed logins, code requests). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
  /** Growing-delay throttles: the next slot opens at this time (ms). */
  blockedUntil: integer("blocked_until").notNull().default(0),
});

/**
 * Accounts: three per user (funding = type change, options = micro, contract = forex) and the
 * platform's own accounts (user_id NULL, platform_code set). User balances can never go
 * negative: the CHECK aborts the whole ledger batch that would overdraw them.
 */
export const accounts = sqliteTable(
  "accounts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id),
    platformCode: text("platform_code"),
    kind: text("kind").notNull(),
    accountTypeId: integer("account_type_id").notNull(),
    currencyId: integer("currency_id").notNull().default(1),
    balance: integer("balance").notNull().default(0),
    lockBalance: integer("lock_balance").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("accounts_user_kind").on(t.userId, t.kind),
    uniqueIndex("accounts_platform_code").on(t.platformCode),
    check(
      "accounts_owner",
      sql`(${t.userId} IS NULL) <> (${t.platformCode} IS NULL)`,
    ),
    check(
      "accounts_user_non_negative",
      sql`${t.userId} IS NULL OR (${t.balance} >= 0 AND ${t.lockBalance} >= 0)`,
    ),
  ],
);

/** A double-entry transaction. idempotency_key is UNIQUE and inserted first in its batch. */
export const ledgerTransactions = sqliteTable(
  "ledger_transactions",
  {
    id: text("id").primaryKey(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    kind: text("kind").notNull(),
    memo: text("memo").notNull().default(""),
    userId: integer("user_id"),
    /** Set-based postings write the sum of their entries here: the CHECK makes an unbalanced batch fail. */
    imbalance: integer("imbalance").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_transactions_key").on(t.idempotencyKey),
    check("ledger_transactions_balanced", sql`${t.imbalance} = 0`),
    index("ledger_transactions_user").on(t.userId, t.createdAt),
  ],
);

/** Entries: bucket 0 = available balance, 1 = locked balance. Entries of a transaction sum to zero. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    bucket: integer("bucket").notNull().default(0),
    amount: integer("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_entries_account").on(t.accountId, t.id),
    index("ledger_entries_transaction").on(t.transactionId),
    check("ledger_entries_bucket", sql`${t.bucket} IN (0, 1)`),
  ],
);

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey(),
  key: text("key").notNull(),
  name: text("name").notNull(),
  sort: integer("sort").notNull().default(0),
});

/** Instruments with every field of spec §3; decimals as TEXT. */
export const instruments = sqliteTable(
  "instruments",
  {
    id: integer("id").primaryKey(),
    code: text("code").notNull(),
    showCode: text("show_code").notNull(),
    logo: text("logo").notNull().default(""),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    pricePrecision: integer("price_precision").notNull(),
    lotStep: text("lot_step").notNull(),
    minLots: text("min_lots").notNull(),
    contractSize: text("contract_size").notNull(),
    feeRate: text("fee_rate").notNull(),
    marginMode: integer("margin_mode").notNull(),
    multiples: text("multiples").notNull().default("[]"),
    sessionKind: text("session_kind").notNull(),
    basePrice: text("base_price").notNull(),
    annualVolatility: text("annual_volatility").notNull(),
    status: integer("status").notNull().default(1),
    sort: integer("sort").notNull().default(0),
  },
  (t) => [uniqueIndex("instruments_code").on(t.code), index("instruments_category").on(t.categoryId, t.sort)],
);

export const news = sqliteTable("news", {
  id: integer("id").primaryKey(),
  categoryId: integer("category_id").notNull().default(1),
  title: text("title").notNull(),
  desc: text("desc").notNull().default(""),
  logo: text("logo").notNull().default(""),
  content: text("content").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const announcements = sqliteTable("announcements", {
  id: integer("id").primaryKey(),
  title: text("title").notNull(),
  content: text("content").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** Local outbox of the embedded mail/SMS provider (GET /dev/outbox when running locally). */
export const outbox = sqliteTable("outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  channel: text("channel", { enum: ["email", "sms"] }).notNull(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
});
