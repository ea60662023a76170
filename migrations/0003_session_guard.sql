CREATE TABLE `session_guard` (
	`session_id` text,
	CONSTRAINT "session_valid" CHECK("session_guard"."session_id" IS NULL)
);
