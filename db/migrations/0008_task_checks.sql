CREATE TABLE `task_checks` (
	`run_id` text PRIMARY KEY NOT NULL,
	`outcome` text NOT NULL,
	`reason` text NOT NULL,
	`output` text DEFAULT '' NOT NULL,
	`claimed` integer,
	`checker_version` integer NOT NULL,
	`checked_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
