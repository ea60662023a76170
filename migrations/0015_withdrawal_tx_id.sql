ALTER TABLE `withdrawals` ADD `tx_id` text;--> statement-breakpoint
ALTER TABLE `withdrawals` ADD `tx_network` text;