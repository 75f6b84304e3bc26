ALTER TABLE `runs` ADD `source` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `evidence` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `workspace_root` text;