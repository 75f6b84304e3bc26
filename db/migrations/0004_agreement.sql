CREATE TABLE `adjudications` (
	`set_id` integer NOT NULL,
	`run_id` text NOT NULL,
	`metric` text NOT NULL,
	`value` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`user_id` integer NOT NULL,
	`decided_at` text NOT NULL,
	PRIMARY KEY(`set_id`, `run_id`, `metric`),
	FOREIGN KEY (`set_id`) REFERENCES `agreement_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `item_assignments` (
	`set_id` integer NOT NULL,
	`run_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`submitted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`set_id`, `run_id`, `user_id`),
	FOREIGN KEY (`set_id`) REFERENCES `agreement_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_assignments_user` ON `item_assignments` (`user_id`,`set_id`);--> statement-breakpoint
ALTER TABLE `agreement_items` ADD `stratum` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `agreement_sets` ADD `annotators_per_item` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `agreement_sets` ADD `reveal_after_submit` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `agreement_sets` ADD `created_by` integer REFERENCES users(id);