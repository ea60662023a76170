/**
 * D1 schema (drizzle). Money columns are INTEGER micro-USD (1 USD = 1_000_000), see
 * docs/decisions/003-money.md; configuration decimals (fee rates, lot steps, prices of the
 * instrument table) are TEXT decimal strings parsed by app/lib/decimal.ts. Never REAL.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
    role: text("role", { enum: ["user", "operator"] })
      .notNull()
      .default("user"),
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

/**
 * Upstream mode's sessions (ADR 024): the backend keeps users and money, so a signed-in user has
 * no row in `users`. The row maps our cookie's token (stored as its SHA-256, as in `sessions`) to
 * the backend's token and the user's display fields from the backend's login answer. The backend's
 * token is stored encrypted with a key derived from our token, which only the cookie holds: the
 * database alone cannot act as the user upstream.
 */
export const upstreamSessions = sqliteTable("upstream_sessions", {
  id: text("id").primaryKey(),
  /** AES-GCM of the backend's token: base64url of the 12-byte IV and the ciphertext. */
  upstreamToken: text("upstream_token").notNull(),
  /** The backend's user id and uid. */
  userId: integer("user_id").notNull(),
  uid: text("uid").notNull(),
  email: text("email"),
  mobile: text("mobile"),
  isDemo: integer("is_demo").notNull().default(0),
  isTrader: integer("is_trader").notNull().default(0),
  inviteCode: text("invite_code").notNull().default(""),
  expiresAt: integer("expires_at").notNull(),
  revokedAt: integer("revoked_at"),
  userAgent: text("user_agent").notNull().default(""),
  createdAt: createdAt(),
});

/**
 * Upstream mode's cache (ADR 024): the backend's answers to the public reads that change rarely
 * (base settings, company, categories, instruments), by call and language. An entry is served
 * as it is while fresh, and served marked stale when the backend is slow or down; money, orders
 * and users are never kept here.
 */
export const upstreamCache = sqliteTable("upstream_cache", {
  /** The language, the §7 path and its sorted query ("en /v2/api/forex/trade_list"). */
  key: text("key").primaryKey(),
  /** The answer's `data`, as JSON, checked against its schema before it was stored. */
  body: text("body").notNull(),
  fetchedAt: integer("fetched_at").notNull(),
});

/**
 * The devices a user has signed in from (issue 24's "sign-in from a new device" notice): the
 * SHA-256 of the browser's device cookie, or of an API client's user agent and network.
 */
export const userDevices = sqliteTable(
  "user_devices",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    deviceId: text("device_id").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
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
  /** Slots taken in the window just before `window_start` (the sliding-window estimate). */
  prevCount: integer("prev_count").notNull().default(0),
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
    check("accounts_owner", sql`(${t.userId} IS NULL) <> (${t.platformCode} IS NULL)`),
    check("accounts_user_non_negative", sql`${t.userId} IS NULL OR (${t.balance} >= 0 AND ${t.lockBalance} >= 0)`),
  ],
);

/**
 * A double-entry transaction, with an integer id (docs/decisions/003-money-and-ledger.md "A compact
 * ledger"). idempotency_key is UNIQUE and inserted first in its batch: it is the one copy of the
 * key (entries and other rows refer to the integer id).
 */
export const ledgerTransactions = sqliteTable(
  "ledger_transactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    idempotencyKey: text("idempotency_key").notNull(),
    /** What a replay of the key must match: 16 hex digits of the request's SHA-256 (NULL for set-based rows, whose key is their only identity). */
    requestHash: text("request_hash"),
    kind: text("kind").notNull(),
    memo: text("memo").notNull().default(""),
    userId: integer("user_id"),
    /** Set-based postings write the sum of their entries here: the CHECK makes an unbalanced batch fail. */
    imbalance: integer("imbalance").notNull().default(0),
    /** Set-based batches that post many transactions at once tag them with the batch's id (ledger_batches). */
    batchId: integer("batch_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_transactions_key").on(t.idempotencyKey),
    index("ledger_transactions_batch")
      .on(t.batchId)
      .where(sql`${t.batchId} IS NOT NULL`),
    check("ledger_transactions_balanced", sql`${t.imbalance} = 0`),
    index("ledger_transactions_user").on(t.userId, t.createdAt),
  ],
);

/** Entries: bucket 0 = available balance, 1 = locked balance. Entries of a transaction sum to zero. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: integer("transaction_id")
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

/**
 * One row per set-based batch (the engine's tick, a copy chunk, a fund-income chunk, a demo
 * reset): its random integer id is inserted first, so two batches can never share an id (a
 * collision fails the second batch instead of mixing their rows). `mark` is the largest
 * fund_incomes id before a fund-income batch: the batch's income rows are those above it.
 */
export const ledgerBatches = sqliteTable("ledger_batches", {
  id: integer("id").primaryKey(),
  mark: integer("mark"),
});

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
    /** Delivery contracts: days between deliveries (0 = perpetual) and the next delivery instant (ms). */
    deliveryDays: integer("delivery_days").notNull().default(0),
    deliveryAt: integer("delivery_at"),
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

/**
 * Contract orders (spec §3): prices as integer steps of 10^-precision, lots and units per lot as
 * integers of 10^-6, money in micros. The terms are frozen at placement (precision, units, fee
 * rate), so later instrument edits never change an open order's figures.
 */
export const contractOrders = sqliteTable(
  "contract_orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    instrumentId: integer("instrument_id").notNull(),
    code: text("code").notNull(),
    /** OrderType: 1 buy, 2 sell. */
    side: integer("side").notNull(),
    /** 0 pending, 1 holding, 3 closed, 4 cancelled. */
    status: integer("status").notNull(),
    lots: integer("lots").notNull(),
    contractSize: integer("contract_size").notNull(),
    precision: integer("precision").notNull(),
    leverage: integer("leverage").notNull().default(0),
    marginMode: integer("margin_mode").notNull(),
    /** OriginPrice: the market price at submission, or the pending order's buy price. */
    originPrice: integer("origin_price").notNull(),
    /** Price: the fill price (null while pending). */
    openPrice: integer("open_price"),
    /** A pending order fills when the price moves to its buy price: 1 from below (up), -1 from above (down). */
    pendingCrossing: integer("pending_crossing").notNull().default(0),
    closePrice: integer("close_price"),
    margin: integer("margin").notNull(),
    fee: integer("fee").notNull(),
    stopLoss: integer("stop_loss").notNull().default(0),
    takeProfit: integer("take_profit").notNull().default(0),
    /** Fixed at opening; 0 when the position cannot be liquidated. */
    liquidation: integer("liquidation").notNull().default(0),
    profit: integer("profit"),
    closeReason: text("close_reason"),
    /** FollowType: 1 own order, 2 copied from a leader (copy trading). */
    followType: integer("follow_type").notNull().default(1),
    originId: integer("origin_id"),
    /** The follow a copy belongs to (follow_type 2); kept when origin_id is cleared ("let run"). */
    followId: integer("follow_id"),
    /** The ledger transaction that opened it (set in the same batch; a copy's is set right after its row). */
    openTx: integer("open_tx"),
    createdAt: createdAt(),
    filledAt: integer("filled_at"),
    closedAt: integer("closed_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("contract_orders_open_tx").on(t.openTx),
    index("contract_orders_user").on(t.userId, t.status, t.id),
    index("contract_orders_live").on(t.status, t.updatedAt),
    index("contract_orders_follow").on(t.followId, t.status),
    uniqueIndex("contract_orders_copy_once")
      .on(t.originId, t.userId)
      .where(sql`${t.originId} IS NOT NULL`),
    check("contract_orders_side", sql`${t.side} IN (1, 2)`),
    check("contract_orders_status", sql`${t.status} IN (0, 1, 3, 4)`),
    check("contract_orders_amounts", sql`${t.lots} > 0 AND ${t.margin} >= 0 AND ${t.fee} >= 0`),
  ],
);

/**
 * The unique state-transition key of every order leaving a state (spec: "one per order leaving a
 * state"): a fill and a cancel of a pending order share (id, 0); a manual close, a stop-loss, a
 * take-profit, a liquidation, a delivery and a demo reset of a position share (id, 1). Inserted
 * first in the batch that moves the money, so the loser of a race fails or is skipped.
 */
export const orderExits = sqliteTable(
  "order_exits",
  {
    orderId: integer("order_id").notNull(),
    fromStatus: integer("from_status").notNull(),
    /** The set-based batch that moved it (ledger_batches); NULL for a single close or cancel (post()). */
    batchId: integer("batch_id"),
    reason: text("reason").notNull(),
    price: integer("price"),
    profit: integer("profit").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("order_exits_pk").on(t.orderId, t.fromStatus),
    index("order_exits_batch")
      .on(t.batchId)
      .where(sql`${t.batchId} IS NOT NULL`),
  ],
);

/**
 * Settlements the engine gave up on after its tries (docs/decisions/010-contract-engine.md):
 * one row per order or option, kept for operators (/admin/engine) until one asks to try again.
 */
export const engineParked = sqliteTable(
  "engine_parked",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** contract (an order's exit, fill or cancel) or option (a settlement). */
    kind: text("kind").notNull(),
    itemId: integer("item_id").notNull(),
    userId: integer("user_id").notNull(),
    reason: text("reason").notNull(),
    /** The price it would have settled at (steps of the instrument's precision). */
    price: integer("price").notNull(),
    tries: integer("tries").notNull(),
    error: text("error").notNull(),
    parkedAt: integer("parked_at").notNull(),
  },
  (t) => [uniqueIndex("engine_parked_item").on(t.kind, t.itemId)],
);

/** Job messages that failed all their deliveries (the dead-letter queue's consumer writes them). */
export const jobDeadLetters = sqliteTable("job_dead_letters", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  messageId: text("message_id").notNull().unique(),
  queue: text("queue").notNull(),
  body: text("body").notNull(),
  attempts: integer("attempts").notNull(),
  reason: text("reason").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Never holds a row: a write that must only happen for a live session inserts into it exactly when
 * the session is not live, and the CHECK aborts that write's whole batch (the session is verified
 * in the same transaction as the write; see writeSessionGuard).
 */
export const sessionGuard = sqliteTable("session_guard", { sessionId: text("session_id") }, (t) => [
  check("session_valid", sql`${t.sessionId} IS NULL`),
]);

/** Option durations on offer (spec §3 Micro seconds option: Seconds, ProfitRatio, LimitAmount). Operators edit them. */
export const optionDurations = sqliteTable("option_durations", {
  id: integer("id").primaryKey(),
  seconds: integer("seconds").notNull(),
  /** ProfitRatio as an exact decimal ("0.85"). */
  profitRatio: text("profit_ratio").notNull(),
  /** LimitAmount: the minimum stake (micros). */
  minAmount: integer("min_amount").notNull(),
  sort: integer("sort").notNull().default(0),
  status: integer("status").notNull().default(1),
});

/** Preset stakes offered as buttons (spec: the options response's number list). */
export const optionAmounts = sqliteTable("option_amounts", {
  id: integer("id").primaryKey(),
  amount: integer("amount").notNull(),
  sort: integer("sort").notNull().default(0),
  /** 1 offered, 0 removed by an operator (rows stay, so the seed's fixed ids never come back). */
  status: integer("status").notNull().default(1),
});

/**
 * Timed options (spec §3 micro order). The stake is held in the options account's locked balance
 * until settlement. The receipt: the open and settlement ticks (time and feed), and whether the
 * option settled late (its expiry passed while the market room was away).
 */
export const options = sqliteTable(
  "options",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    instrumentId: integer("instrument_id").notNull(),
    code: text("code").notNull(),
    /** Type: 1 up, 2 down. */
    direction: integer("direction").notNull(),
    amount: integer("amount").notNull(),
    profitRatio: text("profit_ratio").notNull(),
    seconds: integer("seconds").notNull(),
    lossLevel: integer("loss_level").notNull().default(0),
    precision: integer("precision").notNull(),
    openPrice: integer("open_price").notNull(),
    openTickAt: integer("open_tick_at").notNull(),
    openFeed: text("open_feed").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** 1 in transaction, 3 settled. */
    status: integer("status").notNull().default(1),
    endPrice: integer("end_price"),
    endTickAt: integer("end_tick_at"),
    endFeed: text("end_feed"),
    late: integer("late").notNull().default(0),
    profit: integer("profit"),
    openTx: integer("open_tx").notNull(),
    createdAt: createdAt(),
    settledAt: integer("settled_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("options_open_tx").on(t.openTx),
    index("options_user").on(t.userId, t.status, t.id),
    index("options_live").on(t.status, t.updatedAt),
    check("options_direction", sql`${t.direction} IN (1, 2)`),
    check("options_status", sql`${t.status} IN (1, 3)`),
    check("options_amount", sql`${t.amount} > 0`),
  ],
);

/** The unique key of an option's settlement (inserted first in the settling batch). */
export const optionSettlements = sqliteTable(
  "option_settlements",
  {
    optionId: integer("option_id").primaryKey(),
    batchId: integer("batch_id").notNull(),
    endPrice: integer("end_price").notNull(),
    endTickAt: integer("end_tick_at").notNull(),
    endFeed: text("end_feed").notNull(),
    late: integer("late").notNull().default(0),
    profit: integer("profit").notNull(),
    payout: integer("payout").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("option_settlements_batch").on(t.batchId)],
);

/* ---------------------------------------------------------------------------------------------
 * Wallet and funding (issue 10): uploads, deposits, withdrawals, payout methods, transfers,
 * identity verification and the operators' decisions. Money columns are micro-USD integers.
 * ------------------------------------------------------------------------------------------- */

/**
 * Private uploads (identity documents, payment proofs, signatures) stored in R2 under the row's
 * server-generated key. The row is reserved (status 0) before the bytes are streamed, so the
 * per-user quota is counted atomically; status 1 once the object is stored, 2 if it was refused.
 * Served only to the owner and operators (by id, never by a public URL).
 */
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** What the file is for: identity, deposit_proof, repayment_proof, signature, other. */
    purpose: text("purpose").notNull().default("other"),
    r2Key: text("r2_key").notNull(),
    contentType: text("content_type").notNull().default(""),
    size: integer("size").notNull().default(0),
    /** 0 reserved (streaming), 1 stored, 2 refused (wrong type, too large, empty). */
    status: integer("status").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_user").on(t.userId, t.createdAt), check("uploads_status", sql`${t.status} IN (0, 1, 2)`)],
);

/** Deposit currencies (spec §3 Charge currency: id, currency_code, protocol_code, address). Operators edit them. */
export const chargeCurrencies = sqliteTable("charge_currencies", {
  id: integer("id").primaryKey(),
  currencyCode: text("currency_code").notNull(),
  protocolCode: text("protocol_code").notNull(),
  /** The platform's deposit address on that chain. */
  address: text("address").notNull(),
  /** USD value of one coin, exact decimal ("1", "62000.5"): a coin count converts to USD with it. */
  usdPrice: text("usd_price").notNull().default("1"),
  status: integer("status").notNull().default(1),
  sort: integer("sort").notNull().default(0),
});

/** The platform's bank accounts for wire deposits (spec §3 Wire info). */
export const wireAccounts = sqliteTable("wire_accounts", {
  id: integer("id").primaryKey(),
  bankName: text("bank_name").notNull(),
  bankAddress: text("bank_address").notNull(),
  bankSwift: text("bank_swift").notNull(),
  payeeName: text("payee_name").notNull(),
  payeeAccount: text("payee_account").notNull(),
  bankRemark: text("bank_remark").notNull().default(""),
  status: integer("status").notNull().default(1),
  sort: integer("sort").notNull().default(0),
});

/**
 * Deposit requests (spec §3 Charge record). type 0 coin, 1 bank. status 0 unchecked, 1 finished
 * (credited), 2 rejected, 3 invalid. amount is the USD credited on approval; coin_count keeps
 * what the user typed when they entered a coin count (converted at usd_price, kept as a snapshot).
 */
export const deposits = sqliteTable(
  "deposits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    type: integer("type").notNull(),
    chargeCurrencyId: integer("charge_currency_id"),
    wireId: integer("wire_id"),
    currencyCode: text("currency_code").notNull(),
    amount: integer("amount").notNull(),
    coinCount: text("coin_count"),
    usdPrice: text("usd_price").notNull().default("1"),
    /** The user's sending address (coin), optional. */
    address: text("address").notNull().default(""),
    proofUploadId: text("proof_upload_id").notNull(),
    status: integer("status").notNull().default(0),
    /** The operator's reason (shown to the user as the record's remark). */
    remark: text("remark").notNull().default(""),
    /** A per-form nonce: a double-submitted form creates one request. */
    requestId: text("request_id").notNull(),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    ledgerTx: integer("ledger_tx"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deposits_request").on(t.userId, t.requestId),
    index("deposits_user").on(t.userId, t.id),
    index("deposits_status").on(t.status, t.id),
    check("deposits_type", sql`${t.type} IN (0, 1)`),
    check("deposits_status_values", sql`${t.status} IN (0, 1, 2, 3)`),
    check("deposits_amount", sql`${t.amount} > 0`),
  ],
);

/**
 * Withdrawal currencies (spec §3 Withdraw currency: id, code, protocol, draw_rate, fee_type,
 * usd_price). draw_type 1 coin, 2 bank. fee_type 1: draw_rate is a fixed fee in USD; otherwise a
 * rate of the amount. usd_price converts the USD amount into the payout currency.
 */
export const withdrawCurrencies = sqliteTable("withdraw_currencies", {
  id: integer("id").primaryKey(),
  drawType: integer("draw_type").notNull(),
  code: text("code").notNull(),
  protocol: text("protocol").notNull().default(""),
  drawRate: text("draw_rate").notNull(),
  feeType: integer("fee_type").notNull(),
  usdPrice: text("usd_price").notNull().default("1"),
  /** Smallest amount accepted (micros). */
  minAmount: integer("min_amount").notNull().default(0),
  status: integer("status").notNull().default(1),
  sort: integer("sort").notNull().default(0),
});

/** The user's payout methods (spec §3 Draw method): type 1 coin address, 2 bank account. Deleting keeps the row (withdrawals refer to it). */
export const payoutMethods = sqliteTable(
  "payout_methods",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    drawType: integer("draw_type").notNull(),
    drawCurrencyId: integer("draw_currency_id").notNull(),
    dcAddress: text("dc_address").notNull().default(""),
    bankName: text("bank_name").notNull().default(""),
    bankAddress: text("bank_address").notNull().default(""),
    bankSwift: text("bank_swift").notNull().default(""),
    payeeName: text("payee_name").notNull().default(""),
    payeeAccount: text("payee_account").notNull().default(""),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
  },
  (t) => [index("payout_methods_user").on(t.userId, t.drawType), check("payout_methods_type", sql`${t.drawType} IN (1, 2)`)],
);

/**
 * Withdrawal requests (spec §3 Withdraw record). Requesting moves amount from the funding
 * balance to its lock balance (lock_tx); approval pays it out to external:withdrawals
 * (settle_tx); rejection unlocks it (settle_tx). status 0 under review, 1 paid, 2 rejected.
 * fee (micros) and real_number (the received amount in the payout currency, 2 decimals) are
 * fixed when requested, with the currency and the payee as snapshots.
 */
export const withdrawals = sqliteTable(
  "withdrawals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    drawCurrencyId: integer("draw_currency_id").notNull(),
    methodId: integer("method_id").notNull(),
    type: integer("type").notNull(),
    currencyCode: text("currency_code").notNull(),
    amount: integer("amount").notNull(),
    fee: integer("fee").notNull(),
    realNumber: text("real_number").notNull(),
    address: text("address").notNull().default(""),
    payeeAccount: text("payee_account").notNull().default(""),
    memo: text("memo").notNull().default(""),
    status: integer("status").notNull().default(0),
    /** The operator's note (a rejection's reason). */
    notes: text("notes").notNull().default(""),
    /** A paid request: the payout's transaction id (a bank transfer's reference) and its network ('' for a bank transfer). */
    txId: text("tx_id"),
    txNetwork: text("tx_network"),
    requestId: text("request_id").notNull(),
    lockTx: integer("lock_tx").notNull(),
    settleTx: integer("settle_tx"),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("withdrawals_request").on(t.userId, t.requestId),
    index("withdrawals_user").on(t.userId, t.id),
    index("withdrawals_status").on(t.status, t.id),
    check("withdrawals_status_values", sql`${t.status} IN (0, 1, 2)`),
    check("withdrawals_amounts", sql`${t.amount} > 0 AND ${t.fee} >= 0`),
  ],
);

/** Transfers between a user's sub-accounts (spec §3 Transfer log: balance, from, to, created_at). */
export const transfers = sqliteTable(
  "transfers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** Account kinds (funding, options, contract). */
    fromKind: text("from_kind").notNull(),
    toKind: text("to_kind").notNull(),
    amount: integer("amount").notNull(),
    ledgerTx: integer("ledger_tx").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("transfers_tx").on(t.ledgerTx),
    index("transfers_user").on(t.userId, t.id),
    check("transfers_amount", sql`${t.amount} > 0 AND ${t.fromKind} <> ${t.toKind}`),
  ],
);

/**
 * Real-name verification (spec §3 Auth info, §4): one row per user. review_status 1 waiting for
 * audit, 2 certified, 3 rejected (the user may submit again); no row means 0 (not submitted).
 */
export const identityVerifications = sqliteTable(
  "identity_verifications",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    name: text("name").notNull(),
    cardId: text("card_id").notNull(),
    frontUploadId: text("front_upload_id").notNull(),
    reverseUploadId: text("reverse_upload_id").notNull(),
    reviewStatus: integer("review_status").notNull().default(1),
    /** Counts submissions (a rejected user may submit again): the step of its operator decision. */
    submission: integer("submission").notNull().default(1),
    reason: text("reason").notNull().default(""),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("identity_status").on(t.reviewStatus, t.updatedAt), check("identity_status_values", sql`${t.reviewStatus} IN (1, 2, 3)`)],
);

/**
 * Every operator decision (who, when, what, why): the audit trail of the review queues. The
 * unique (subject, subject_id, step) key makes a decision happen once, whatever the concurrency.
 */
export const operatorDecisions = sqliteTable(
  "operator_decisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => users.id),
    /** deposit, withdrawal, identity (later: loan, repayment, trader application). */
    subject: text("subject").notNull(),
    subjectId: text("subject_id").notNull(),
    /** Which review of the subject this decides (1 for single-step reviews; a resubmitted identity counts up). */
    step: integer("step").notNull().default(1),
    decision: text("decision", { enum: ["approve", "reject"] }).notNull(),
    reason: text("reason").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("operator_decisions_once").on(t.subject, t.subjectId, t.step),
    index("operator_decisions_operator").on(t.operatorId, t.createdAt),
  ],
);

/**
 * Operators confirm payouts with a fresh e-mail code: a session's step-up is recorded here and
 * lasts a short while (see app/services/operator.server.ts).
 */
export const operatorStepUps = sqliteTable("operator_step_ups", {
  sessionId: text("session_id").primaryKey(),
  verifiedAt: integer("verified_at").notNull(),
});

/* ---------------------------------------------------------------------------------------------
 * Copy trading (issue 11): trader applications, traders (leaders) with their cached statistics,
 * follows (a follower's settings per trader) and the copies the engine skipped. Copied orders are
 * contract_orders with follow_type 2 and origin_id = the trader's order.
 * ------------------------------------------------------------------------------------------- */

/** Applications to become a trader. status 0 waiting, 1 approved, 2 rejected; at most one waiting per user. */
export const traderApplications = sqliteTable(
  "trader_applications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    status: integer("status").notNull().default(0),
    /** The operator's reason (a rejection's is shown to the user). */
    reason: text("reason").notNull().default(""),
    /** When the applicant ticked the agreement (required). */
    agreedAt: integer("agreed_at").notNull(),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trader_applications_waiting")
      .on(t.userId)
      .where(sql`${t.status} = 0`),
    index("trader_applications_user").on(t.userId, t.id),
    index("trader_applications_status").on(t.status, t.id),
    check("trader_applications_status_values", sql`${t.status} IN (0, 1, 2)`),
  ],
);

/**
 * Traders (spec §3 Trader / Leader). status 1 active, 0 suspended (followers receive no copies
 * and see suspended_reason). profit_share is an exact decimal ("0.1" = 10 %) set by an operator,
 * at most "0.5". The statistics are a cache of the trader's closed own orders (stats_at ms):
 * rates in hundredths of a percent, profits in micros.
 */
export const traders = sqliteTable(
  "traders",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    nickname: text("nickname").notNull(),
    avatar: text("avatar"),
    status: integer("status").notNull().default(1),
    suspendedReason: text("suspended_reason").notNull().default(""),
    profitShare: text("profit_share").notNull().default("0"),
    approvedAt: integer("approved_at").notNull(),
    threeWeekRate: integer("three_week_rate").notNull().default(0),
    threeWeekWin: integer("three_week_win").notNull().default(0),
    threeWeekProfit: integer("three_week_profit").notNull().default(0),
    totalRate: integer("total_rate").notNull().default(0),
    totalProfit: integer("total_profit").notNull().default(0),
    totalTradeNum: integer("total_trade_num").notNull().default(0),
    statsAt: integer("stats_at").notNull().default(0),
  },
  (t) => [index("traders_status").on(t.status, t.threeWeekRate), check("traders_status_values", sql`${t.status} IN (0, 1)`)],
);

/**
 * A follower's settings for one trader. status 1 active, 2 paused (no new copies), 0 ended. multiple
 * 1–100; max_amount (micros) caps the margin of the follower's open copies of this trader;
 * copy_stop_loss (micros, 0 none): stop copying and close the copies when their combined loss
 * reaches it. At most one non-ended follow per (follower, trader).
 */
export const follows = sqliteTable(
  "follows",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    followerId: integer("follower_id")
      .notNull()
      .references(() => users.id),
    traderId: integer("trader_id")
      .notNull()
      .references(() => users.id),
    multiple: integer("multiple").notNull(),
    maxAmount: integer("max_amount").notNull(),
    status: integer("status").notNull().default(1),
    copyStopLoss: integer("copy_stop_loss").notNull().default(0),
    /** Profit shares paid to the trader from this follow's copies (micros; the engine adds to it). */
    paidShare: integer("paid_share").notNull().default(0),
    createdAt: createdAt(),
    endedAt: integer("ended_at"),
  },
  (t) => [
    uniqueIndex("follows_live")
      .on(t.followerId, t.traderId)
      .where(sql`${t.status} <> 0`),
    index("follows_trader").on(t.traderId, t.status),
    index("follows_follower").on(t.followerId, t.status),
    check("follows_status_values", sql`${t.status} IN (0, 1, 2)`),
    check("follows_multiple", sql`${t.multiple} BETWEEN 1 AND 100`),
    check("follows_amounts", sql`${t.maxAmount} > 0 AND ${t.copyStopLoss} >= 0 AND ${t.followerId} <> ${t.traderId}`),
  ],
);

/** Copies the engine skipped (reason: an i18n key such as copy.skip_cap), shown to the follower. */
export const copySkips = sqliteTable(
  "copy_skips",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    followId: integer("follow_id")
      .notNull()
      .references(() => follows.id),
    traderOrderId: integer("trader_order_id").notNull(),
    followerId: integer("follower_id").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("copy_skips_once").on(t.followId, t.traderOrderId), index("copy_skips_follower").on(t.followerId, t.id)],
);

/* ---------------------------------------------------------------------------------------------
 * Loans (issue 12 §1): loan KYC, the operator's loan configs, loans with the agreement exactly as
 * signed, repayments checked by an operator and the daily late-penalty accrual. Money columns are
 * micro-USD integers; rates are exact decimal strings in hundredths of a percent per day (the
 * spec's raw value: "5" is shown as 0.05 % and means 0.0005 of the amount per day).
 * ------------------------------------------------------------------------------------------- */

/**
 * Loan KYC (spec §3 Loan KYC): one row per user. status 1 waiting for review, 2 approved,
 * 3 rejected (the user may submit again); no row means 0 (not submitted).
 */
export const loanKyc = sqliteTable(
  "loan_kyc",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    /** The spec's `name`: the last (family) name. */
    lastName: text("last_name").notNull(),
    /** The spec's `last_name`: the first (given) name. */
    firstName: text("first_name").notNull(),
    /** 1 male, 2 female. */
    sex: integer("sex").notNull(),
    /** YYYY/MM/DD, between 1950/01/01 and the submission day. */
    birthday: text("birthday").notNull(),
    country: text("country").notNull(),
    mobile: text("mobile").notNull(),
    /** 1 ID card, 2 passport. */
    idCardType: integer("id_card_type").notNull(),
    /** A photo of the user holding the document (uploads, purpose identity). */
    handUploadId: text("hand_upload_id").notNull(),
    status: integer("status").notNull().default(1),
    /** Counts submissions: the step of its operator decision. */
    submission: integer("submission").notNull().default(1),
    reason: text("reason").notNull().default(""),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("loan_kyc_status").on(t.status, t.updatedAt),
    check("loan_kyc_status_values", sql`${t.status} IN (1, 2, 3)`),
    check("loan_kyc_choices", sql`${t.sex} IN (1, 2) AND ${t.idCardType} IN (1, 2)`),
  ],
);

/** Loan terms operators offer (spec §3 Loan config). status 1 offered, 0 withdrawn. */
export const loanConfigs = sqliteTable(
  "loan_configs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Days from approval to the repayment date. */
    loanPeriod: integer("loan_period").notNull(),
    minAmount: integer("min_amount").notNull(),
    maxAmount: integer("max_amount").notNull(),
    /** Daily interest, hundredths of a percent (exact decimal string). */
    interestRate: text("interest_rate").notNull(),
    /** Interest-free days at the start of the period. */
    freePeriod: integer("free_period").notNull().default(0),
    /** Daily late fee after the repayment date, hundredths of a percent of the principal ("25" = 0.25 %). */
    penaltyRate: text("penalty_rate").notNull().default("25"),
    status: integer("status").notNull().default(1),
    sort: integer("sort").notNull().default(0),
    updatedAt: integer("updated_at").notNull().default(0),
  },
  (t) => [
    check(
      "loan_configs_bounds",
      sql`${t.minAmount} > 0 AND ${t.maxAmount} >= ${t.minAmount} AND ${t.loanPeriod} > 0 AND ${t.freePeriod} >= 0 AND ${t.freePeriod} <= ${t.loanPeriod}`,
    ),
    check("loan_configs_status_values", sql`${t.status} IN (0, 1)`),
  ],
);

/**
 * Loans (spec §3 Loan, §4 Loan states): status 1 awaiting review, 2 to repay, 3 rejected,
 * 4 repayment under check, 5 repaid. The terms are a snapshot of the config when applying; the
 * agreement is stored exactly as shown and signed (text plus the signature image or typed name).
 * At most one open loan (status 1, 2 or 4) per user.
 */
export const loans = sqliteTable(
  "loans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    configId: integer("config_id")
      .notNull()
      .references(() => loanConfigs.id),
    amount: integer("amount").notNull(),
    loanPeriod: integer("loan_period").notNull(),
    freePeriod: integer("free_period").notNull(),
    interestRate: text("interest_rate").notNull(),
    penaltyRate: text("penalty_rate").notNull(),
    interestAmount: integer("interest_amount").notNull(),
    /** Late fees accrued so far (the daily job adds one day's fee per late day). */
    penaltyAmount: integer("penalty_amount").notNull().default(0),
    status: integer("status").notNull().default(1),
    agreement: text("agreement").notNull(),
    /** The drawn signature (uploads, purpose signature), or null when the full name was typed. */
    signatureUploadId: text("signature_upload_id"),
    /** The typed full name when signing without a drawing. */
    signatureName: text("signature_name").notNull().default(""),
    requestId: text("request_id").notNull(),
    /** The operator's reason for a rejection. */
    reason: text("reason").notNull().default(""),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    /** Repayment date (ms, end of the period), set on approval. */
    dueAt: integer("due_at"),
    /** When the repayment was approved (ms). */
    repaymentTime: integer("repayment_time"),
    loanTx: integer("loan_tx"),
    repayTx: integer("repay_tx"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("loans_request").on(t.userId, t.requestId),
    uniqueIndex("loans_open")
      .on(t.userId)
      .where(sql`${t.status} IN (1, 2, 4)`),
    index("loans_user").on(t.userId, t.id),
    index("loans_status").on(t.status, t.id),
    check("loans_status_values", sql`${t.status} IN (1, 2, 3, 4, 5)`),
    check("loans_amounts", sql`${t.amount} > 0 AND ${t.interestAmount} >= 0 AND ${t.penaltyAmount} >= 0`),
  ],
);

/**
 * Repayment proofs (spec §7 repayment: charge_id, loan_id, proofImg). status 0 waiting for the
 * operator's check, 1 approved (the loan becomes 5), 2 rejected (the loan goes back to 2). The
 * amounts are the loan's due amount when the proof was sent.
 */
export const loanRepayments = sqliteTable(
  "loan_repayments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    loanId: integer("loan_id")
      .notNull()
      .references(() => loans.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** The repayment account used (charge_currencies.id). */
    chargeId: integer("charge_id").notNull(),
    proofUploadId: text("proof_upload_id").notNull(),
    principal: integer("principal").notNull(),
    interest: integer("interest").notNull(),
    penalty: integer("penalty").notNull(),
    status: integer("status").notNull().default(0),
    reason: text("reason").notNull().default(""),
    reviewedBy: integer("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("loan_repayments_waiting")
      .on(t.loanId)
      .where(sql`${t.status} = 0`),
    index("loan_repayments_loan").on(t.loanId, t.id),
    index("loan_repayments_status").on(t.status, t.id),
    check("loan_repayments_status_values", sql`${t.status} IN (0, 1, 2)`),
  ],
);

/** One row per loan and late day (YYYY-MM-DD, UTC): the daily penalty job's idempotency key. */
export const loanPenaltyDays = sqliteTable(
  "loan_penalty_days",
  {
    loanId: integer("loan_id")
      .notNull()
      .references(() => loans.id),
    day: text("day").notNull(),
    amount: integer("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("loan_penalty_days_once").on(t.loanId, t.day)],
);

/* ---------------------------------------------------------------------------------------------
 * Mining / funds (issue 12 §2): fund products, subscriptions and their daily income. Amounts are
 * micro-USD (the fund's currency code is a label of the same unit); percentages are exact decimal
 * strings in percent.
 * ------------------------------------------------------------------------------------------- */

/** Fund products (spec §3 Fund product). status 1 open for subscription, 0 closed. */
export const funds = sqliteTable(
  "funds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    /** A public image path (or empty for the default picture). */
    image: text("image").notNull().default(""),
    currencyCode: text("currency_code").notNull().default("USDT"),
    /** Expected daily profit, percent of the amount. */
    dividendPercentage: text("dividend_percentage").notNull(),
    /** Machine rent: the minimum subscription (the spec's staring_sub_amount). */
    startingSubAmount: integer("starting_sub_amount").notNull(),
    lockDividendDays: integer("lock_dividend_days").notNull(),
    maxSubAmount: integer("max_sub_amount").notNull(),
    desc: text("desc").notNull().default(""),
    /** Early-redemption penalty, percent of the share amount. */
    liquidatedDamages: text("liquidated_damages").notNull().default("0"),
    /** 1: redemption requests are approved automatically; 0: an operator approves each. */
    autoRefund: integer("auto_refund").notNull().default(0),
    status: integer("status").notNull().default(1),
    sort: integer("sort").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("funds_status").on(t.status, t.sort),
    check("funds_bounds", sql`${t.startingSubAmount} > 0 AND ${t.maxSubAmount} >= ${t.startingSubAmount} AND ${t.lockDividendDays} > 0`),
    check("funds_status_values", sql`${t.status} IN (0, 1) AND ${t.autoRefund} IN (0, 1)`),
  ],
);

/**
 * Subscriptions (spec §3 Subscription, §4): status 1 in progress, 2 refunding (redemption
 * requested), 3 refunded (share − penalty returned), 4 finished (the lock period ended and the
 * share returned). Income is paid for each day from start_day (the day after subscribing) to
 * end_day inclusive (UTC dates, YYYY-MM-DD), while the status is 1.
 */
export const fundSubscriptions = sqliteTable(
  "fund_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    fundId: integer("fund_id")
      .notNull()
      .references(() => funds.id),
    shareAmount: integer("share_amount").notNull(),
    /** dividend % × amount / 100, rounded to 4 decimals (a multiple of 100 micros). */
    dayProfit: integer("day_profit").notNull(),
    sumProfit: integer("sum_profit").notNull().default(0),
    /** Snapshot of the product's terms at subscription. */
    lockDays: integer("lock_days").notNull(),
    liquidatedDamages: text("liquidated_damages").notNull(),
    status: integer("status").notNull().default(1),
    startDay: text("start_day").notNull(),
    endDay: text("end_day").notNull(),
    /** The redemption penalty (set when redemption is requested). */
    penalty: integer("penalty").notNull().default(0),
    requestId: text("request_id").notNull(),
    subTx: integer("sub_tx").notNull(),
    /** The ledger transaction that returned the money (refund or finish). */
    returnTx: integer("return_tx"),
    refundRequestedAt: integer("refund_requested_at"),
    reviewedBy: integer("reviewed_by"),
    closedAt: integer("closed_at"),
    subTime: createdAt(),
  },
  (t) => [
    uniqueIndex("fund_subscriptions_request").on(t.userId, t.requestId),
    index("fund_subscriptions_user").on(t.userId, t.id),
    index("fund_subscriptions_status").on(t.status, t.endDay),
    check("fund_subscriptions_status_values", sql`${t.status} IN (1, 2, 3, 4)`),
    check("fund_subscriptions_amounts", sql`${t.shareAmount} > 0 AND ${t.dayProfit} >= 0 AND ${t.penalty} >= 0`),
  ],
);

/**
 * Daily income (spec §3 Income record): one row per subscription and day, the job's idempotency key
 * (UNIQUE (sub_id, day)). Each is one line of the user's fund_income transaction of that day
 * (ledger_tx): one transaction per user and day, an entry per subscription.
 */
export const fundIncomes = sqliteTable(
  "fund_incomes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subId: integer("sub_id")
      .notNull()
      .references(() => fundSubscriptions.id),
    userId: integer("user_id").notNull(),
    day: text("day").notNull(),
    interest: integer("interest").notNull(),
    ledgerTx: integer("ledger_tx").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("fund_incomes_once").on(t.subId, t.day)],
);

/* ---------------------------------------------------------------------------------------------
 * Content and account extras (issue 13): news and announcements per language written by
 * operators, cache versions, feedback, web3 login.
 * ------------------------------------------------------------------------------------------- */

/** A news item's text in one language (the news row holds the English text, the fallback). */
export const newsTexts = sqliteTable(
  "news_texts",
  {
    newsId: integer("news_id")
      .notNull()
      .references(() => news.id),
    lang: text("lang").notNull(),
    title: text("title").notNull(),
    desc: text("desc").notNull().default(""),
    content: text("content").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("news_texts_lang").on(t.newsId, t.lang)],
);

/** An announcement's text in one language (the announcement row holds the English fallback). */
export const announcementTexts = sqliteTable(
  "announcement_texts",
  {
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id),
    lang: text("lang").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("announcement_texts_lang").on(t.announcementId, t.lang)],
);

/** Version counters of cached content (settings, news): an edit bumps its counter, so every Worker's in-memory copy is dropped. */
export const cacheVersions = sqliteTable("cache_versions", {
  name: text("name").primaryKey(),
  version: integer("version").notNull().default(0),
});

/** Users' feedback (/feedback). status 0 new, 1 read by an operator. */
export const feedback = sqliteTable(
  "feedback",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    content: text("content").notNull(),
    contact: text("contact").notNull().default(""),
    status: integer("status").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("feedback_user").on(t.userId, t.createdAt), index("feedback_status").on(t.status, t.id)],
);

/** Single-use sign-in nonces for web3 login (5 minutes), bound to the lowercased address that asked. */
export const web3Nonces = sqliteTable(
  "web3_nonces",
  {
    nonce: text("nonce").primaryKey(),
    address: text("address").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("web3_nonces_address").on(t.address, t.createdAt)],
);

/** Wallet addresses (lowercased, one form per address) linked to users for web3 login. */
export const userWallets = sqliteTable(
  "user_wallets",
  {
    address: text("address").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_wallets_user").on(t.userId)],
);
