CREATE TABLE `engine_parked` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`item_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`price` integer NOT NULL,
	`tries` integer NOT NULL,
	`error` text NOT NULL,
	`parked_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `engine_parked_item` ON `engine_parked` (`kind`,`item_id`);