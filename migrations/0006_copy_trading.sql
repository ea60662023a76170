CREATE TABLE `copy_skips` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`follow_id` integer NOT NULL,
	`trader_order_id` integer NOT NULL,
	`follower_id` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`follow_id`) REFERENCES `follows`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `copy_skips_once` ON `copy_skips` (`follow_id`,`trader_order_id`);--> statement-breakpoint
CREATE INDEX `copy_skips_follower` ON `copy_skips` (`follower_id`,`id`);--> statement-breakpoint
CREATE TABLE `follows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`follower_id` integer NOT NULL,
	`trader_id` integer NOT NULL,
	`multiple` integer NOT NULL,
	`max_amount` integer NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`copy_stop_loss` integer DEFAULT 0 NOT NULL,
	`paid_share` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`trader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "follows_status_values" CHECK("follows"."status" IN (0, 1, 2)),
	CONSTRAINT "follows_multiple" CHECK("follows"."multiple" BETWEEN 1 AND 100),
	CONSTRAINT "follows_amounts" CHECK("follows"."max_amount" > 0 AND "follows"."copy_stop_loss" >= 0 AND "follows"."follower_id" <> "follows"."trader_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follows_live` ON `follows` (`follower_id`,`trader_id`) WHERE "follows"."status" <> 0;--> statement-breakpoint
CREATE INDEX `follows_trader` ON `follows` (`trader_id`,`status`);--> statement-breakpoint
CREATE INDEX `follows_follower` ON `follows` (`follower_id`,`status`);--> statement-breakpoint
CREATE TABLE `trader_applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`agreed_at` integer NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "trader_applications_status_values" CHECK("trader_applications"."status" IN (0, 1, 2))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trader_applications_waiting` ON `trader_applications` (`user_id`) WHERE "trader_applications"."status" = 0;--> statement-breakpoint
CREATE INDEX `trader_applications_user` ON `trader_applications` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `trader_applications_status` ON `trader_applications` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `traders` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`nickname` text NOT NULL,
	`avatar` text,
	`status` integer DEFAULT 1 NOT NULL,
	`suspended_reason` text DEFAULT '' NOT NULL,
	`profit_share` text DEFAULT '0' NOT NULL,
	`approved_at` integer NOT NULL,
	`three_week_rate` integer DEFAULT 0 NOT NULL,
	`three_week_win` integer DEFAULT 0 NOT NULL,
	`three_week_profit` integer DEFAULT 0 NOT NULL,
	`total_rate` integer DEFAULT 0 NOT NULL,
	`total_profit` integer DEFAULT 0 NOT NULL,
	`total_trade_num` integer DEFAULT 0 NOT NULL,
	`stats_at` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "traders_status_values" CHECK("traders"."status" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `traders_status` ON `traders` (`status`,`three_week_rate`);--> statement-breakpoint
ALTER TABLE `contract_orders` ADD `follow_id` integer;--> statement-breakpoint
CREATE INDEX `contract_orders_follow` ON `contract_orders` (`follow_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `contract_orders_copy_once` ON `contract_orders` (`origin_id`,`user_id`) WHERE "contract_orders"."origin_id" IS NOT NULL;