ALTER TABLE `jobs` ADD `worker_id` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `heartbeat_at` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_expires_at` text;