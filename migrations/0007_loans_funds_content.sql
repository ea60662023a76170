CREATE TABLE `announcement_texts` (
	`announcement_id` integer NOT NULL,
	`lang` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`announcement_id`) REFERENCES `announcements`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `announcement_texts_lang` ON `announcement_texts` (`announcement_id`,`lang`);--> statement-breakpoint
CREATE TABLE `cache_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `feedback` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`content` text NOT NULL,
	`contact` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `feedback_user` ON `feedback` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `feedback_status` ON `feedback` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `fund_incomes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sub_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`interest` integer NOT NULL,
	`ledger_tx` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`sub_id`) REFERENCES `fund_subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_incomes_once` ON `fund_incomes` (`sub_id`,`day`);--> statement-breakpoint
CREATE INDEX `fund_incomes_user` ON `fund_incomes` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `fund_subscriptions` (
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
	`sub_tx` text NOT NULL,
	`return_tx` text,
	`refund_requested_at` integer,
	`reviewed_by` integer,
	`closed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fund_id`) REFERENCES `funds`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "fund_subscriptions_status_values" CHECK("fund_subscriptions"."status" IN (1, 2, 3, 4)),
	CONSTRAINT "fund_subscriptions_amounts" CHECK("fund_subscriptions"."share_amount" > 0 AND "fund_subscriptions"."day_profit" >= 0 AND "fund_subscriptions"."penalty" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_subscriptions_request` ON `fund_subscriptions` (`user_id`,`request_id`);--> statement-breakpoint
CREATE INDEX `fund_subscriptions_user` ON `fund_subscriptions` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `fund_subscriptions_status` ON `fund_subscriptions` (`status`,`end_day`);--> statement-breakpoint
CREATE TABLE `funds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`currency_code` text DEFAULT 'USDT' NOT NULL,
	`dividend_percentage` text NOT NULL,
	`starting_sub_amount` integer NOT NULL,
	`lock_dividend_days` integer NOT NULL,
	`max_sub_amount` integer NOT NULL,
	`desc` text DEFAULT '' NOT NULL,
	`liquidated_damages` text DEFAULT '0' NOT NULL,
	`auto_refund` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "funds_bounds" CHECK("funds"."starting_sub_amount" > 0 AND "funds"."max_sub_amount" >= "funds"."starting_sub_amount" AND "funds"."lock_dividend_days" > 0),
	CONSTRAINT "funds_status_values" CHECK("funds"."status" IN (0, 1) AND "funds"."auto_refund" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `funds_status` ON `funds` (`status`,`sort`);--> statement-breakpoint
CREATE TABLE `loan_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`loan_period` integer NOT NULL,
	`min_amount` integer NOT NULL,
	`max_amount` integer NOT NULL,
	`interest_rate` text NOT NULL,
	`free_period` integer DEFAULT 0 NOT NULL,
	`penalty_rate` text DEFAULT '25' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "loan_configs_bounds" CHECK("loan_configs"."min_amount" > 0 AND "loan_configs"."max_amount" >= "loan_configs"."min_amount" AND "loan_configs"."loan_period" > 0 AND "loan_configs"."free_period" >= 0 AND "loan_configs"."free_period" <= "loan_configs"."loan_period"),
	CONSTRAINT "loan_configs_status_values" CHECK("loan_configs"."status" IN (0, 1))
);
--> statement-breakpoint
CREATE TABLE `loan_kyc` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`last_name` text NOT NULL,
	`first_name` text NOT NULL,
	`sex` integer NOT NULL,
	`birthday` text NOT NULL,
	`country` text NOT NULL,
	`mobile` text NOT NULL,
	`id_card_type` integer NOT NULL,
	`hand_upload_id` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`submission` integer DEFAULT 1 NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "loan_kyc_status_values" CHECK("loan_kyc"."status" IN (1, 2, 3)),
	CONSTRAINT "loan_kyc_choices" CHECK("loan_kyc"."sex" IN (1, 2) AND "loan_kyc"."id_card_type" IN (1, 2))
);
--> statement-breakpoint
CREATE INDEX `loan_kyc_status` ON `loan_kyc` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `loan_penalty_days` (
	`loan_id` integer NOT NULL,
	`day` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`loan_id`) REFERENCES `loans`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `loan_penalty_days_once` ON `loan_penalty_days` (`loan_id`,`day`);--> statement-breakpoint
CREATE TABLE `loan_repayments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`loan_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`charge_id` integer NOT NULL,
	`proof_upload_id` text NOT NULL,
	`principal` integer NOT NULL,
	`interest` integer NOT NULL,
	`penalty` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`loan_id`) REFERENCES `loans`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "loan_repayments_status_values" CHECK("loan_repayments"."status" IN (0, 1, 2))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `loan_repayments_waiting` ON `loan_repayments` (`loan_id`) WHERE "loan_repayments"."status" = 0;--> statement-breakpoint
CREATE INDEX `loan_repayments_loan` ON `loan_repayments` (`loan_id`,`id`);--> statement-breakpoint
CREATE INDEX `loan_repayments_status` ON `loan_repayments` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `loans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`config_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`loan_period` integer NOT NULL,
	`free_period` integer NOT NULL,
	`interest_rate` text NOT NULL,
	`penalty_rate` text NOT NULL,
	`interest_amount` integer NOT NULL,
	`penalty_amount` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`agreement` text NOT NULL,
	`signature_upload_id` text,
	`signature_name` text DEFAULT '' NOT NULL,
	`request_id` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`due_at` integer,
	`repayment_time` integer,
	`loan_tx` text,
	`repay_tx` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`config_id`) REFERENCES `loan_configs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "loans_status_values" CHECK("loans"."status" IN (1, 2, 3, 4, 5)),
	CONSTRAINT "loans_amounts" CHECK("loans"."amount" > 0 AND "loans"."interest_amount" >= 0 AND "loans"."penalty_amount" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `loans_request` ON `loans` (`user_id`,`request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `loans_open` ON `loans` (`user_id`) WHERE "loans"."status" IN (1, 2, 4);--> statement-breakpoint
CREATE INDEX `loans_user` ON `loans` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `loans_status` ON `loans` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `news_texts` (
	`news_id` integer NOT NULL,
	`lang` text NOT NULL,
	`title` text NOT NULL,
	`desc` text DEFAULT '' NOT NULL,
	`content` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`news_id`) REFERENCES `news`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `news_texts_lang` ON `news_texts` (`news_id`,`lang`);--> statement-breakpoint
CREATE TABLE `user_wallets` (
	`address` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_wallets_user` ON `user_wallets` (`user_id`);--> statement-breakpoint
CREATE TABLE `web3_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `web3_nonces_address` ON `web3_nonces` (`address`,`created_at`);--> statement-breakpoint
INSERT OR IGNORE INTO `accounts` (`id`, `platform_code`, `kind`, `account_type_id`) VALUES (-1, 'platform:loan_interest', 'platform', 0);--> statement-breakpoint
INSERT OR IGNORE INTO `accounts` (`id`, `platform_code`, `kind`, `account_type_id`) VALUES (-2, 'platform:loan_penalties', 'platform', 0);
