CREATE TABLE `upstream_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`upstream_token` text NOT NULL,
	`user_id` integer NOT NULL,
	`uid` text NOT NULL,
	`email` text,
	`mobile` text,
	`is_demo` integer DEFAULT 0 NOT NULL,
	`is_trader` integer DEFAULT 0 NOT NULL,
	`invite_code` text DEFAULT '' NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`user_agent` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
