CREATE TABLE `agent_configs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`framework` text NOT NULL,
	`framework_version` text,
	`model` text NOT NULL,
	`provider` text NOT NULL,
	`tools` text NOT NULL,
	`guidelines` text,
	`limits` text NOT NULL,
	`options` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `agreement_items` (
	`set_id` integer NOT NULL,
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`set_id`, `run_id`),
	FOREIGN KEY (`set_id`) REFERENCES `agreement_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `agreement_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`seed` integer NOT NULL,
	`size` integer NOT NULL,
	`design` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agreement_sets_name_unique` ON `agreement_sets` (`name`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`set_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`submitted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`set_id`, `user_id`),
	FOREIGN KEY (`set_id`) REFERENCES `agreement_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `benchmarks` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`source` text NOT NULL,
	`seed` integer,
	`config` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `environment_snapshots` (
	`run_id` text NOT NULL,
	`phase` text NOT NULL,
	`captured_at` text,
	`snapshot` text NOT NULL,
	PRIMARY KEY(`run_id`, `phase`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `file_changes` (
	`run_id` text NOT NULL,
	`path` text NOT NULL,
	`kind` text NOT NULL,
	`before_sha256` text,
	`after_sha256` text,
	`before_mode` integer,
	`after_mode` integer,
	`before_size` integer,
	`after_size` integer,
	PRIMARY KEY(`run_id`, `path`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`before_sha256`) REFERENCES `file_contents`(`sha256`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`after_sha256`) REFERENCES `file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `file_contents` (
	`sha256` text PRIMARY KEY NOT NULL,
	`size` integer NOT NULL,
	`is_text` integer NOT NULL,
	`content` blob NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`benchmark_id` text NOT NULL,
	`subtask_id` text NOT NULL,
	`source_sample` text,
	`snapshot_id` integer,
	`prompt` text NOT NULL,
	`paraphrase_index` integer,
	`contract` text NOT NULL,
	`ground_truth` text NOT NULL,
	`setup` text DEFAULT '[]' NOT NULL,
	`in_eval_split` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`benchmark_id`) REFERENCES `benchmarks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subtask_id`) REFERENCES `subtasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`snapshot_id`) REFERENCES `repo_snapshots`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `instances_benchmark_subtask` ON `instances` (`benchmark_id`,`subtask_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`params` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`progress_done` integer DEFAULT 0 NOT NULL,
	`progress_total` integer,
	`message` text,
	`log` text DEFAULT '' NOT NULL,
	`error` text,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`worker_pid` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `judge_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`response` text NOT NULL,
	`input_tokens` integer,
	`output_tokens` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `judges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`provider` text DEFAULT '' NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`prompt_version` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judges_identity` ON `judges` (`kind`,`name`,`provider`,`model`,`prompt_version`);--> statement-breakpoint
CREATE TABLE `labels` (
	`set_id` integer NOT NULL,
	`run_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`metric` text NOT NULL,
	`value` text NOT NULL,
	`note` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`set_id`, `run_id`, `user_id`, `metric`),
	FOREIGN KEY (`set_id`) REFERENCES `agreement_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `repo_snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`benchmark_id` text NOT NULL,
	`project_path` text NOT NULL,
	`digest` text NOT NULL,
	`file_count` integer NOT NULL,
	`total_bytes` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`benchmark_id`) REFERENCES `benchmarks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repo_snapshots_benchmark_project` ON `repo_snapshots` (`benchmark_id`,`project_path`);--> statement-breakpoint
CREATE TABLE `run_artifacts` (
	`run_id` text NOT NULL,
	`path` text NOT NULL,
	`kind` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`run_id`, `path`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sha256`) REFERENCES `file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`instance_id` text NOT NULL,
	`agent_config_id` text NOT NULL,
	`status` text NOT NULL,
	`exit_reason` text NOT NULL,
	`error` text,
	`scripted` integer DEFAULT false NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`step_count` integer NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cost_usd` real,
	`task_completed` integer,
	`files_before` integer NOT NULL,
	`files_after` integer NOT NULL,
	`bundle_digest` text NOT NULL,
	`bundle_version` integer NOT NULL,
	`imported_via` text NOT NULL,
	`job_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_config_id`) REFERENCES `agent_configs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `runs_instance` ON `runs` (`instance_id`);--> statement-breakpoint
CREATE INDEX `runs_agent_config` ON `runs` (`agent_config_id`);--> statement-breakpoint
CREATE INDEX `runs_started_at` ON `runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `snapshot_files` (
	`snapshot_id` integer NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`mode` integer NOT NULL,
	PRIMARY KEY(`snapshot_id`, `path`),
	FOREIGN KEY (`snapshot_id`) REFERENCES `repo_snapshots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sha256`) REFERENCES `file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `subtasks` (
	`id` text PRIMARY KEY NOT NULL,
	`family` text NOT NULL,
	`label` text NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trajectory_steps` (
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`step_id` text NOT NULL,
	`kind` text NOT NULL,
	`role` text,
	`timestamp` text,
	`text` text,
	`tool_name` text,
	`tool_arguments` text,
	`call_id` text,
	`command` text,
	`exit_code` integer,
	`is_error` integer,
	`path` text,
	`duration_ms` integer,
	`input_tokens` integer,
	`output_tokens` integer,
	PRIMARY KEY(`run_id`, `position`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trajectory_steps_run_step` ON `trajectory_steps` (`run_id`,`step_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`display_name` text NOT NULL,
	`role` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE TABLE `verdicts` (
	`run_id` text NOT NULL,
	`metric` text NOT NULL,
	`judge_id` integer NOT NULL,
	`value` text NOT NULL,
	`rationale` text DEFAULT '' NOT NULL,
	`citations` text DEFAULT '[]' NOT NULL,
	`evidence` text DEFAULT '[]' NOT NULL,
	`raw_response` text,
	`input_tokens` integer,
	`output_tokens` integer,
	`cost_usd` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`run_id`, `metric`, `judge_id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`judge_id`) REFERENCES `judges`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `verdicts_judge_metric` ON `verdicts` (`judge_id`,`metric`);