CREATE TABLE `option_amounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`amount` integer NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `option_durations` (
	`id` integer PRIMARY KEY NOT NULL,
	`seconds` integer NOT NULL,
	`profit_ratio` text NOT NULL,
	`min_amount` integer NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `option_settlements` (
	`option_id` integer PRIMARY KEY NOT NULL,
	`batch_id` text NOT NULL,
	`end_price` integer NOT NULL,
	`end_tick_at` integer NOT NULL,
	`end_feed` text NOT NULL,
	`late` integer DEFAULT 0 NOT NULL,
	`profit` integer NOT NULL,
	`payout` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `option_settlements_batch` ON `option_settlements` (`batch_id`);--> statement-breakpoint
CREATE TABLE `options` (
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
	`open_tx` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`settled_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "options_direction" CHECK("options"."direction" IN (1, 2)),
	CONSTRAINT "options_status" CHECK("options"."status" IN (1, 3)),
	CONSTRAINT "options_amount" CHECK("options"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `options_open_tx` ON `options` (`open_tx`);--> statement-breakpoint
CREATE INDEX `options_user` ON `options` (`user_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `options_live` ON `options` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `options_expiry` ON `options` (`status`,`expires_at`);