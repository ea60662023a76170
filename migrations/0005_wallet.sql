CREATE TABLE `charge_currencies` (
	`id` integer PRIMARY KEY NOT NULL,
	`currency_code` text NOT NULL,
	`protocol_code` text NOT NULL,
	`address` text NOT NULL,
	`usd_price` text DEFAULT '1' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `deposits` (
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
	`ledger_tx` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "deposits_type" CHECK("deposits"."type" IN (0, 1)),
	CONSTRAINT "deposits_status_values" CHECK("deposits"."status" IN (0, 1, 2, 3)),
	CONSTRAINT "deposits_amount" CHECK("deposits"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_request` ON `deposits` (`user_id`,`request_id`);--> statement-breakpoint
CREATE INDEX `deposits_user` ON `deposits` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `deposits_status` ON `deposits` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `identity_verifications` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`card_id` text NOT NULL,
	`front_upload_id` text NOT NULL,
	`reverse_upload_id` text NOT NULL,
	`review_status` integer DEFAULT 1 NOT NULL,
	`submission` integer DEFAULT 1 NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "identity_status_values" CHECK("identity_verifications"."review_status" IN (1, 2, 3))
);
--> statement-breakpoint
CREATE INDEX `identity_status` ON `identity_verifications` (`review_status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `operator_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer NOT NULL,
	`subject` text NOT NULL,
	`subject_id` text NOT NULL,
	`step` integer DEFAULT 1 NOT NULL,
	`decision` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_decisions_once` ON `operator_decisions` (`subject`,`subject_id`,`step`);--> statement-breakpoint
CREATE INDEX `operator_decisions_operator` ON `operator_decisions` (`operator_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `operator_step_ups` (
	`session_id` text PRIMARY KEY NOT NULL,
	`verified_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payout_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`draw_type` integer NOT NULL,
	`draw_currency_id` integer NOT NULL,
	`dc_address` text DEFAULT '' NOT NULL,
	`bank_name` text DEFAULT '' NOT NULL,
	`bank_address` text DEFAULT '' NOT NULL,
	`bank_swift` text DEFAULT '' NOT NULL,
	`payee_name` text DEFAULT '' NOT NULL,
	`payee_account` text DEFAULT '' NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payout_methods_type" CHECK("payout_methods"."draw_type" IN (1, 2))
);
--> statement-breakpoint
CREATE INDEX `payout_methods_user` ON `payout_methods` (`user_id`,`draw_type`);--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`from_kind` text NOT NULL,
	`to_kind` text NOT NULL,
	`amount` integer NOT NULL,
	`ledger_tx` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transfers_amount" CHECK("transfers"."amount" > 0 AND "transfers"."from_kind" <> "transfers"."to_kind")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transfers_tx` ON `transfers` (`ledger_tx`);--> statement-breakpoint
CREATE INDEX `transfers_user` ON `transfers` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text DEFAULT 'other' NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text DEFAULT '' NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "uploads_status" CHECK("uploads"."status" IN (0, 1, 2))
);
--> statement-breakpoint
CREATE INDEX `uploads_user` ON `uploads` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `wire_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`bank_name` text NOT NULL,
	`bank_address` text NOT NULL,
	`bank_swift` text NOT NULL,
	`payee_name` text NOT NULL,
	`payee_account` text NOT NULL,
	`bank_remark` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `withdraw_currencies` (
	`id` integer PRIMARY KEY NOT NULL,
	`draw_type` integer NOT NULL,
	`code` text NOT NULL,
	`protocol` text DEFAULT '' NOT NULL,
	`draw_rate` text NOT NULL,
	`fee_type` integer NOT NULL,
	`usd_price` text DEFAULT '1' NOT NULL,
	`min_amount` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `withdrawals` (
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
	`lock_tx` text NOT NULL,
	`settle_tx` text,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "withdrawals_status_values" CHECK("withdrawals"."status" IN (0, 1, 2)),
	CONSTRAINT "withdrawals_amounts" CHECK("withdrawals"."amount" > 0 AND "withdrawals"."fee" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_request` ON `withdrawals` (`user_id`,`request_id`);--> statement-breakpoint
CREATE INDEX `withdrawals_user` ON `withdrawals` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `withdrawals_status` ON `withdrawals` (`status`,`id`);