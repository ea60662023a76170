-- Set-based ledger postings: a transaction's entries must sum to zero (the batch fails otherwise).
ALTER TABLE `ledger_transactions` ADD `imbalance` integer DEFAULT 0 NOT NULL CONSTRAINT `ledger_transactions_balanced` CHECK (`imbalance` = 0);--> statement-breakpoint
-- Growing-delay throttles.
ALTER TABLE `rate_limits` ADD `blocked_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- One canonical form per mobile number (E.164: '+', area code, national digits without trunk zeros);
-- the stored form was "<area code>-<number as typed>".
UPDATE `users` SET `mobile` = '+' || substr(`mobile`, 1, instr(`mobile`, '-') - 1) || ltrim(substr(`mobile`, instr(`mobile`, '-') + 1), '0')
 WHERE `mobile` IS NOT NULL AND instr(`mobile`, '-') > 0;--> statement-breakpoint
-- Codes and throttles keyed by the old spelling are void.
DELETE FROM `verification_codes` WHERE `target` NOT LIKE '%@%' AND `target` NOT LIKE '+%';--> statement-breakpoint
DELETE FROM `rate_limits`;
