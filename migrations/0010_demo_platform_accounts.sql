-- Demo users' trades settle against platform accounts of their own, so the real fee income,
-- trading counterparty and options pool never hold simulated money (see ADR 003).
INSERT OR IGNORE INTO `accounts` (`id`, `platform_code`, `kind`, `account_type_id`) VALUES (-3, 'platform:demo_fees', 'platform', 0);--> statement-breakpoint
INSERT OR IGNORE INTO `accounts` (`id`, `platform_code`, `kind`, `account_type_id`) VALUES (-4, 'platform:demo_counterparty', 'platform', 0);--> statement-breakpoint
INSERT OR IGNORE INTO `accounts` (`id`, `platform_code`, `kind`, `account_type_id`) VALUES (-5, 'platform:demo_options', 'platform', 0);
