CREATE TABLE `contract_orders` (
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
	`open_tx` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`filled_at` integer,
	`closed_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "contract_orders_side" CHECK("contract_orders"."side" IN (1, 2)),
	CONSTRAINT "contract_orders_status" CHECK("contract_orders"."status" IN (0, 1, 3, 4)),
	CONSTRAINT "contract_orders_amounts" CHECK("contract_orders"."lots" > 0 AND "contract_orders"."margin" >= 0 AND "contract_orders"."fee" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contract_orders_open_tx` ON `contract_orders` (`open_tx`);--> statement-breakpoint
CREATE INDEX `contract_orders_user` ON `contract_orders` (`user_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `contract_orders_live` ON `contract_orders` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `contract_orders_code` ON `contract_orders` (`code`,`status`);--> statement-breakpoint
CREATE TABLE `order_exits` (
	`order_id` integer NOT NULL,
	`from_status` integer NOT NULL,
	`batch_id` text NOT NULL,
	`reason` text NOT NULL,
	`price` integer,
	`profit` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_exits_pk` ON `order_exits` (`order_id`,`from_status`);--> statement-breakpoint
CREATE INDEX `order_exits_batch` ON `order_exits` (`batch_id`);--> statement-breakpoint
ALTER TABLE `instruments` ADD `delivery_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `instruments` ADD `delivery_at` integer;--> statement-breakpoint
ALTER TABLE `ledger_transactions` ADD `batch_id` text;--> statement-breakpoint
CREATE INDEX `ledger_transactions_batch` ON `ledger_transactions` (`batch_id`);--> statement-breakpoint
UPDATE `instruments` SET `delivery_days` = 7 WHERE `code` IN ('USOIL', 'UKOIL') AND `delivery_days` = 0;
