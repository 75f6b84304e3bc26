ALTER TABLE `agent_configs` ADD `mitigation` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `mitigation` text;