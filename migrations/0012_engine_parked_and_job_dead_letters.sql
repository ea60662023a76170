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
CREATE UNIQUE INDEX `engine_parked_item` ON `engine_parked` (`kind`,`item_id`);--> statement-breakpoint
CREATE TABLE `job_dead_letters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`queue` text NOT NULL,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_dead_letters_message_id_unique` ON `job_dead_letters` (`message_id`);