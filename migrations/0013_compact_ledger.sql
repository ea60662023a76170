-- A compact ledger (issue 20 §5; docs/decisions/003-money-and-ledger.md "A compact ledger"):
-- integer ids for ledger transactions and set-based batches, every reference to a transaction an
-- integer, and the indexes no query uses dropped (contract_orders_code, options_expiry,
-- fund_incomes_user). Existing rows are carried over: a transaction keeps its old rowid as its id.
CREATE TABLE `ledger_batches` (
	`id` integer PRIMARY KEY NOT NULL,
	`mark` integer
);
--> statement-breakpoint
-- Old text ids → new integer ids: a transaction's new id is its old rowid; other tables referred to a
-- transaction by its id or by its idempotency key, so both are mapped.
CREATE TABLE `_tx_map` (`old` text PRIMARY KEY NOT NULL, `new` integer NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO `_tx_map` (`old`, `new`) SELECT `id`, rowid FROM `ledger_transactions`;
--> statement-breakpoint
INSERT OR IGNORE INTO `_tx_map` (`old`, `new`) SELECT `idempotency_key`, rowid FROM `ledger_transactions`;
--> statement-breakpoint
-- Set-based batches get integer ids. A single close or cancel wrote its idempotency key as its
-- "batch" (contract_exit:…, contract_pending_exit:…): it had no batch, and now has NULL.
CREATE TABLE `_batch_map` (`new` integer PRIMARY KEY NOT NULL, `old` text NOT NULL UNIQUE);
--> statement-breakpoint
INSERT OR IGNORE INTO `_batch_map` (`old`)
SELECT `batch_id` FROM `ledger_transactions` WHERE `batch_id` IS NOT NULL
UNION SELECT `batch_id` FROM `order_exits` WHERE `batch_id` NOT LIKE 'contract\_exit:%' ESCAPE '\' AND `batch_id` NOT LIKE 'contract\_pending\_exit:%' ESCAPE '\'
UNION SELECT `batch_id` FROM `option_settlements`;
--> statement-breakpoint
INSERT INTO `ledger_batches` (`id`) SELECT `new` FROM `_batch_map`;
--> statement-breakpoint
-- The children of recreated tables are set aside first (a parent with children cannot be dropped).
CREATE TABLE `_old_ledger_entries` AS SELECT `id`, (SELECT new FROM _tx_map WHERE old = `transaction_id`) AS `transaction_id`, `account_id`, `bucket`, `amount`, `created_at` FROM `ledger_entries`;
--> statement-breakpoint
DROP TABLE `ledger_entries`;
--> statement-breakpoint
CREATE TABLE `_old_fund_incomes` AS SELECT `id`, `sub_id`, `user_id`, `day`, `interest`, (SELECT new FROM _tx_map WHERE old = `ledger_tx`) AS `ledger_tx`, `created_at` FROM `fund_incomes`;
--> statement-breakpoint
DROP TABLE `fund_incomes`;
--> statement-breakpoint
CREATE TABLE `__new_ledger_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text,
	`kind` text NOT NULL,
	`memo` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`imbalance` integer DEFAULT 0 NOT NULL,
	`batch_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "ledger_transactions_balanced" CHECK("__new_ledger_transactions"."imbalance" = 0)
);
--> statement-breakpoint
INSERT INTO `__new_ledger_transactions`("id", "idempotency_key", "request_hash", "kind", "memo", "user_id", "imbalance", "batch_id", "created_at") SELECT rowid, "idempotency_key", CASE WHEN "batch_id" IS NULL THEN "request_hash" END, "kind", "memo", "user_id", "imbalance", (SELECT new FROM _batch_map WHERE old = "batch_id"), "created_at" FROM `ledger_transactions`;
--> statement-breakpoint
DROP TABLE `ledger_transactions`;
--> statement-breakpoint
ALTER TABLE `__new_ledger_transactions` RENAME TO `ledger_transactions`;
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_transactions_key` ON `ledger_transactions` (`idempotency_key`);
--> statement-breakpoint
CREATE INDEX `ledger_transactions_batch` ON `ledger_transactions` (`batch_id`) WHERE "ledger_transactions"."batch_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `ledger_transactions_user` ON `ledger_transactions` (`user_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `__new_fund_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`fund_id` integer NOT NULL,
	`share_amount` integer NOT NULL,
	`day_profit` integer NOT NULL,
	`sum_profit` integer DEFAULT 0 NOT NULL,
	`lock_days` integer NOT NULL,
	`liquidated_damages` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`start_day` text NOT NULL,
	`end_day` text NOT NULL,
	`penalty` integer DEFAULT 0 NOT NULL,
	`request_id` text NOT NULL,
	`sub_tx` integer NOT NULL,
	`return_tx` integer,
	`refund_requested_at` integer,
	`reviewed_by` integer,
	`closed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "fund_subscriptions_status_values" CHECK("__new_fund_subscriptions"."status" IN (1, 2, 3, 4)),
	CONSTRAINT "fund_subscriptions_amounts" CHECK("__new_fund_subscriptions"."share_amount" > 0 AND "__new_fund_subscriptions"."day_profit" >= 0 AND "__new_fund_subscriptions"."penalty" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_fund_subscriptions`("id", "user_id", "fund_id", "share_amount", "day_profit", "sum_profit", "lock_days", "liquidated_damages", "status", "start_day", "end_day", "penalty", "request_id", "sub_tx", "return_tx", "refund_requested_at", "reviewed_by", "closed_at", "created_at") SELECT "id", "user_id", "fund_id", "share_amount", "day_profit", "sum_profit", "lock_days", "liquidated_damages", "status", "start_day", "end_day", "penalty", "request_id", (SELECT new FROM _tx_map WHERE old = "sub_tx"), (SELECT new FROM _tx_map WHERE old = "return_tx"), "refund_requested_at", "reviewed_by", "closed_at", "created_at" FROM `fund_subscriptions`;
--> statement-breakpoint
DROP TABLE `fund_subscriptions`;
--> statement-breakpoint
ALTER TABLE `__new_fund_subscriptions` RENAME TO `fund_subscriptions`;
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_subscriptions_request` ON `fund_subscriptions` (`user_id`,`request_id`);
--> statement-breakpoint
CREATE INDEX `fund_subscriptions_user` ON `fund_subscriptions` (`user_id`,`id`);
--> statement-breakpoint
CREATE INDEX `fund_subscriptions_status` ON `fund_subscriptions` (`status`,`end_day`);
--> statement-breakpoint
CREATE TABLE `__new_ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`bucket` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_entries_bucket" CHECK("__new_ledger_entries"."bucket" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_ledger_entries`("id", "transaction_id", "account_id", "bucket", "amount", "created_at") SELECT "id", "transaction_id", "account_id", "bucket", "amount", "created_at" FROM `_old_ledger_entries`;
--> statement-breakpoint
DROP TABLE `_old_ledger_entries`;
--> statement-breakpoint
ALTER TABLE `__new_ledger_entries` RENAME TO `ledger_entries`;
--> statement-breakpoint
CREATE INDEX `ledger_entries_account` ON `ledger_entries` (`account_id`,`id`);
--> statement-breakpoint
CREATE INDEX `ledger_entries_transaction` ON `ledger_entries` (`transaction_id`);
--> statement-breakpoint
CREATE TABLE `__new_fund_incomes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sub_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`interest` integer NOT NULL,
	`ledger_tx` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`sub_id`) REFERENCES `fund_subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_fund_incomes`("id", "sub_id", "user_id", "day", "interest", "ledger_tx", "created_at") SELECT "id", "sub_id", "user_id", "day", "interest", "ledger_tx", "created_at" FROM `_old_fund_incomes`;
--> statement-breakpoint
DROP TABLE `_old_fund_incomes`;
--> statement-breakpoint
ALTER TABLE `__new_fund_incomes` RENAME TO `fund_incomes`;
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_incomes_once` ON `fund_incomes` (`sub_id`,`day`);
--> statement-breakpoint
CREATE TABLE `__new_contract_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`instrument_id` integer NOT NULL,
	`code` text NOT NULL,
	`side` integer NOT NULL,
	`status` integer NOT NULL,
	`lots` integer NOT NULL,
	`contract_size` integer NOT NULL,
	`precision` integer NOT NULL,
	`leverage` integer DEFAULT 0 NOT NULL,
	`margin_mode` integer NOT NULL,
	`origin_price` integer NOT NULL,
	`open_price` integer,
	`pending_crossing` integer DEFAULT 0 NOT NULL,
	`close_price` integer,
	`margin` integer NOT NULL,
	`fee` integer NOT NULL,
	`stop_loss` integer DEFAULT 0 NOT NULL,
	`take_profit` integer DEFAULT 0 NOT NULL,
	`liquidation` integer DEFAULT 0 NOT NULL,
	`profit` integer,
	`close_reason` text,
	`follow_type` integer DEFAULT 1 NOT NULL,
	`origin_id` integer,
	`follow_id` integer,
	`open_tx` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`filled_at` integer,
	`closed_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "contract_orders_side" CHECK("__new_contract_orders"."side" IN (1, 2)),
	CONSTRAINT "contract_orders_status" CHECK("__new_contract_orders"."status" IN (0, 1, 3, 4)),
	CONSTRAINT "contract_orders_amounts" CHECK("__new_contract_orders"."lots" > 0 AND "__new_contract_orders"."margin" >= 0 AND "__new_contract_orders"."fee" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_contract_orders`("id", "user_id", "account_id", "instrument_id", "code", "side", "status", "lots", "contract_size", "precision", "leverage", "margin_mode", "origin_price", "open_price", "pending_crossing", "close_price", "margin", "fee", "stop_loss", "take_profit", "liquidation", "profit", "close_reason", "follow_type", "origin_id", "follow_id", "open_tx", "created_at", "filled_at", "closed_at", "updated_at") SELECT "id", "user_id", "account_id", "instrument_id", "code", "side", "status", "lots", "contract_size", "precision", "leverage", "margin_mode", "origin_price", "open_price", "pending_crossing", "close_price", "margin", "fee", "stop_loss", "take_profit", "liquidation", "profit", "close_reason", "follow_type", "origin_id", "follow_id", (SELECT new FROM _tx_map WHERE old = "open_tx"), "created_at", "filled_at", "closed_at", "updated_at" FROM `contract_orders`;
--> statement-breakpoint
DROP TABLE `contract_orders`;
--> statement-breakpoint
ALTER TABLE `__new_contract_orders` RENAME TO `contract_orders`;
--> statement-breakpoint
CREATE UNIQUE INDEX `contract_orders_open_tx` ON `contract_orders` (`open_tx`);
--> statement-breakpoint
CREATE INDEX `contract_orders_user` ON `contract_orders` (`user_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `contract_orders_live` ON `contract_orders` (`status`,`updated_at`);
--> statement-breakpoint
CREATE INDEX `contract_orders_follow` ON `contract_orders` (`follow_id`,`status`);
--> statement-breakpoint
CREATE UNIQUE INDEX `contract_orders_copy_once` ON `contract_orders` (`origin_id`,`user_id`) WHERE "contract_orders"."origin_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `__new_options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`instrument_id` integer NOT NULL,
	`code` text NOT NULL,
	`direction` integer NOT NULL,
	`amount` integer NOT NULL,
	`profit_ratio` text NOT NULL,
	`seconds` integer NOT NULL,
	`loss_level` integer DEFAULT 0 NOT NULL,
	`precision` integer NOT NULL,
	`open_price` integer NOT NULL,
	`open_tick_at` integer NOT NULL,
	`open_feed` text NOT NULL,
	`expires_at` integer NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`end_price` integer,
	`end_tick_at` integer,
	`end_feed` text,
	`late` integer DEFAULT 0 NOT NULL,
	`profit` integer,
	`open_tx` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`settled_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "options_direction" CHECK("__new_options"."direction" IN (1, 2)),
	CONSTRAINT "options_status" CHECK("__new_options"."status" IN (1, 3)),
	CONSTRAINT "options_amount" CHECK("__new_options"."amount" > 0)
);
--> statement-breakpoint
INSERT INTO `__new_options`("id", "user_id", "account_id", "instrument_id", "code", "direction", "amount", "profit_ratio", "seconds", "loss_level", "precision", "open_price", "open_tick_at", "open_feed", "expires_at", "status", "end_price", "end_tick_at", "end_feed", "late", "profit", "open_tx", "created_at", "settled_at", "updated_at") SELECT "id", "user_id", "account_id", "instrument_id", "code", "direction", "amount", "profit_ratio", "seconds", "loss_level", "precision", "open_price", "open_tick_at", "open_feed", "expires_at", "status", "end_price", "end_tick_at", "end_feed", "late", "profit", (SELECT new FROM _tx_map WHERE old = "open_tx"), "created_at", "settled_at", "updated_at" FROM `options`;
--> statement-breakpoint
DROP TABLE `options`;
--> statement-breakpoint
ALTER TABLE `__new_options` RENAME TO `options`;
--> statement-breakpoint
CREATE UNIQUE INDEX `options_open_tx` ON `options` (`open_tx`);
--> statement-breakpoint
CREATE INDEX `options_user` ON `options` (`user_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `options_live` ON `options` (`status`,`updated_at`);
--> statement-breakpoint
CREATE TABLE `__new_order_exits` (
	`order_id` integer NOT NULL,
	`from_status` integer NOT NULL,
	`batch_id` integer,
	`reason` text NOT NULL,
	`price` integer,
	`profit` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_order_exits`("order_id", "from_status", "batch_id", "reason", "price", "profit", "created_at") SELECT "order_id", "from_status", (SELECT new FROM _batch_map WHERE old = "batch_id"), "reason", "price", "profit", "created_at" FROM `order_exits`;
--> statement-breakpoint
DROP TABLE `order_exits`;
--> statement-breakpoint
ALTER TABLE `__new_order_exits` RENAME TO `order_exits`;
--> statement-breakpoint
CREATE UNIQUE INDEX `order_exits_pk` ON `order_exits` (`order_id`,`from_status`);
--> statement-breakpoint
CREATE INDEX `order_exits_batch` ON `order_exits` (`batch_id`) WHERE "order_exits"."batch_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `__new_option_settlements` (
	`option_id` integer PRIMARY KEY NOT NULL,
	`batch_id` integer NOT NULL,
	`end_price` integer NOT NULL,
	`end_tick_at` integer NOT NULL,
	`end_feed` text NOT NULL,
	`late` integer DEFAULT 0 NOT NULL,
	`profit` integer NOT NULL,
	`payout` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_option_settlements`("option_id", "batch_id", "end_price", "end_tick_at", "end_feed", "late", "profit", "payout", "created_at") SELECT "option_id", (SELECT new FROM _batch_map WHERE old = "batch_id"), "end_price", "end_tick_at", "end_feed", "late", "profit", "payout", "created_at" FROM `option_settlements`;
--> statement-breakpoint
DROP TABLE `option_settlements`;
--> statement-breakpoint
ALTER TABLE `__new_option_settlements` RENAME TO `option_settlements`;
--> statement-breakpoint
CREATE INDEX `option_settlements_batch` ON `option_settlements` (`batch_id`);
--> statement-breakpoint
CREATE TABLE `__new_deposits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` integer NOT NULL,
	`charge_currency_id` integer,
	`wire_id` integer,
	`currency_code` text NOT NULL,
	`amount` integer NOT NULL,
	`coin_count` text,
	`usd_price` text DEFAULT '1' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`proof_upload_id` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`remark` text DEFAULT '' NOT NULL,
	`request_id` text NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`ledger_tx` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "deposits_type" CHECK("__new_deposits"."type" IN (0, 1)),
	CONSTRAINT "deposits_status_values" CHECK("__new_deposits"."status" IN (0, 1, 2, 3)),
	CONSTRAINT "deposits_amount" CHECK("__new_deposits"."amount" > 0)
);
--> statement-breakpoint
INSERT INTO `__new_deposits`("id", "user_id", "type", "charge_currency_id", "wire_id", "currency_code", "amount", "coin_count", "usd_price", "address", "proof_upload_id", "status", "remark", "request_id", "reviewed_by", "reviewed_at", "ledger_tx", "created_at") SELECT "id", "user_id", "type", "charge_currency_id", "wire_id", "currency_code", "amount", "coin_count", "usd_price", "address", "proof_upload_id", "status", "remark", "request_id", "reviewed_by", "reviewed_at", (SELECT new FROM _tx_map WHERE old = "ledger_tx"), "created_at" FROM `deposits`;
--> statement-breakpoint
DROP TABLE `deposits`;
--> statement-breakpoint
ALTER TABLE `__new_deposits` RENAME TO `deposits`;
--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_request` ON `deposits` (`user_id`,`request_id`);
--> statement-breakpoint
CREATE INDEX `deposits_user` ON `deposits` (`user_id`,`id`);
--> statement-breakpoint
CREATE INDEX `deposits_status` ON `deposits` (`status`,`id`);
--> statement-breakpoint
CREATE TABLE `__new_withdrawals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`draw_currency_id` integer NOT NULL,
	`method_id` integer NOT NULL,
	`type` integer NOT NULL,
	`currency_code` text NOT NULL,
	`amount` integer NOT NULL,
	`fee` integer NOT NULL,
	`real_number` text NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`payee_account` text DEFAULT '' NOT NULL,
	`memo` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`request_id` text NOT NULL,
	`lock_tx` integer NOT NULL,
	`settle_tx` integer,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "withdrawals_status_values" CHECK("__new_withdrawals"."status" IN (0, 1, 2)),
	CONSTRAINT "withdrawals_amounts" CHECK("__new_withdrawals"."amount" > 0 AND "__new_withdrawals"."fee" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_withdrawals`("id", "user_id", "draw_currency_id", "method_id", "type", "currency_code", "amount", "fee", "real_number", "address", "payee_account", "memo", "status", "notes", "request_id", "lock_tx", "settle_tx", "reviewed_by", "reviewed_at", "created_at") SELECT "id", "user_id", "draw_currency_id", "method_id", "type", "currency_code", "amount", "fee", "real_number", "address", "payee_account", "memo", "status", "notes", "request_id", (SELECT new FROM _tx_map WHERE old = "lock_tx"), (SELECT new FROM _tx_map WHERE old = "settle_tx"), "reviewed_by", "reviewed_at", "created_at" FROM `withdrawals`;
--> statement-breakpoint
DROP TABLE `withdrawals`;
--> statement-breakpoint
ALTER TABLE `__new_withdrawals` RENAME TO `withdrawals`;
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_request` ON `withdrawals` (`user_id`,`request_id`);
--> statement-breakpoint
CREATE INDEX `withdrawals_user` ON `withdrawals` (`user_id`,`id`);
--> statement-breakpoint
CREATE INDEX `withdrawals_status` ON `withdrawals` (`status`,`id`);
--> statement-breakpoint
CREATE TABLE `__new_transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`from_kind` text NOT NULL,
	`to_kind` text NOT NULL,
	`amount` integer NOT NULL,
	`ledger_tx` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transfers_amount" CHECK("__new_transfers"."amount" > 0 AND "__new_transfers"."from_kind" <> "__new_transfers"."to_kind")
);
--> statement-breakpoint
INSERT INTO `__new_transfers`("id", "user_id", "from_kind", "to_kind", "amount", "ledger_tx", "created_at") SELECT "id", "user_id", "from_kind", "to_kind", "amount", (SELECT new FROM _tx_map WHERE old = "ledger_tx"), "created_at" FROM `transfers`;
--> statement-breakpoint
DROP TABLE `transfers`;
--> statement-breakpoint
ALTER TABLE `__new_transfers` RENAME TO `transfers`;
--> statement-breakpoint
CREATE UNIQUE INDEX `transfers_tx` ON `transfers` (`ledger_tx`);
--> statement-breakpoint
CREATE INDEX `transfers_user` ON `transfers` (`user_id`,`id`);
--> statement-breakpoint
-- loans is the parent of repayments and penalty days: its two columns change in place.
ALTER TABLE `loans` ADD `loan_tx_id` integer;
--> statement-breakpoint
UPDATE `loans` SET `loan_tx_id` = (SELECT new FROM _tx_map WHERE old = `loan_tx`) WHERE `loan_tx` IS NOT NULL;
--> statement-breakpoint
ALTER TABLE `loans` DROP COLUMN `loan_tx`;
--> statement-breakpoint
ALTER TABLE `loans` RENAME COLUMN `loan_tx_id` TO `loan_tx`;
--> statement-breakpoint
ALTER TABLE `loans` ADD `repay_tx_id` integer;
--> statement-breakpoint
UPDATE `loans` SET `repay_tx_id` = (SELECT new FROM _tx_map WHERE old = `repay_tx`) WHERE `repay_tx` IS NOT NULL;
--> statement-breakpoint
ALTER TABLE `loans` DROP COLUMN `repay_tx`;
--> statement-breakpoint
ALTER TABLE `loans` RENAME COLUMN `repay_tx_id` TO `repay_tx`;
--> statement-breakpoint
DROP TABLE `_batch_map`;
--> statement-breakpoint
DROP TABLE `_tx_map`;
