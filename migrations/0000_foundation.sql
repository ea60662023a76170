CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`platform_code` text,
	`kind` text NOT NULL,
	`account_type_id` integer NOT NULL,
	`currency_id` integer DEFAULT 1 NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`lock_balance` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "accounts_owner" CHECK(("accounts"."user_id" IS NULL) <> ("accounts"."platform_code" IS NULL)),
	CONSTRAINT "accounts_user_non_negative" CHECK("accounts"."user_id" IS NULL OR ("accounts"."balance" >= 0 AND "accounts"."lock_balance" >= 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_user_kind` ON `accounts` (`user_id`,`kind`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_platform_code` ON `accounts` (`platform_code`);--> statement-breakpoint
CREATE TABLE `announcements` (
	`id` integer PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `areas` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`global_code` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `base_settings` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`service_link` text DEFAULT '' NOT NULL,
	`service_link_type` integer DEFAULT 1 NOT NULL,
	`verify_reg_type` integer DEFAULT 1 NOT NULL,
	`trade_fee_type` integer DEFAULT 2 NOT NULL,
	`micro_loss_level` integer DEFAULT 0 NOT NULL,
	`demo_funding_balance` integer DEFAULT 0 NOT NULL,
	`demo_options_balance` integer DEFAULT 0 NOT NULL,
	`demo_contract_balance` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `captchas` (
	`id` text PRIMARY KEY NOT NULL,
	`answer_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `companies` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`logo` text DEFAULT '' NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`registered_address` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`loss_url` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instruments` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`show_code` text NOT NULL,
	`logo` text DEFAULT '' NOT NULL,
	`category_id` integer NOT NULL,
	`price_precision` integer NOT NULL,
	`lot_step` text NOT NULL,
	`min_lots` text NOT NULL,
	`contract_size` text NOT NULL,
	`fee_rate` text NOT NULL,
	`margin_mode` integer NOT NULL,
	`multiples` text DEFAULT '[]' NOT NULL,
	`session_kind` text NOT NULL,
	`base_price` text NOT NULL,
	`annual_volatility` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instruments_code` ON `instruments` (`code`);--> statement-breakpoint
CREATE INDEX `instruments_category` ON `instruments` (`category_id`,`sort`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`account_id` integer NOT NULL,
	`bucket` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `ledger_transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "ledger_entries_bucket" CHECK("ledger_entries"."bucket" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `ledger_entries_account` ON `ledger_entries` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `ledger_entries_transaction` ON `ledger_entries` (`transaction_id`);--> statement-breakpoint
CREATE TABLE `ledger_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`kind` text NOT NULL,
	`memo` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_transactions_key` ON `ledger_transactions` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `ledger_transactions_user` ON `ledger_transactions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `news` (
	`id` integer PRIMARY KEY NOT NULL,
	`category_id` integer DEFAULT 1 NOT NULL,
	`title` text NOT NULL,
	`desc` text DEFAULT '' NOT NULL,
	`logo` text DEFAULT '' NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`user_agent` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`company_id` integer NOT NULL,
	`email` text,
	`mobile` text,
	`area_id` integer,
	`password_hash` text,
	`invite_code` text NOT NULL,
	`referrer_id` integer,
	`is_trader` integer DEFAULT 0 NOT NULL,
	`is_demo` integer DEFAULT 0 NOT NULL,
	`demo_id` text,
	`role` text DEFAULT 'user' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`nickname` text DEFAULT '' NOT NULL,
	`lang` text DEFAULT 'hk' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`area_id`) REFERENCES `areas`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_uid` ON `users` (`uid`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_mobile` ON `users` (`mobile`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_invite_code` ON `users` (`invite_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_demo_id` ON `users` (`demo_id`);--> statement-breakpoint
CREATE INDEX `users_referrer` ON `users` (`referrer_id`);--> statement-breakpoint
CREATE TABLE `verification_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target` text NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verification_codes_target` ON `verification_codes` (`target`,`purpose`,`id`);