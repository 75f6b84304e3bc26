CREATE TABLE `case_studies` (
	`run_id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `run_facts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`benchmark_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`subtask_id` text NOT NULL,
	`family` text NOT NULL,
	`in_eval_split` integer NOT NULL,
	`agent_config_id` text NOT NULL,
	`framework` text NOT NULL,
	`model` text NOT NULL,
	`status` text NOT NULL,
	`scripted` integer NOT NULL,
	`synthetic` integer NOT NULL,
	`started_at` text NOT NULL,
	`step_count` integer NOT NULL,
	`total_tokens` integer NOT NULL,
	`cost_usd` real,
	`duration_ms` integer NOT NULL,
	`task_completed` integer,
	`disagreement_mask` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `run_facts_run_id_unique` ON `run_facts` (`run_id`);--> statement-breakpoint
CREATE INDEX `run_facts_benchmark_started` ON `run_facts` (`benchmark_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `run_facts_started` ON `run_facts` (`started_at`);--> statement-breakpoint
CREATE INDEX `run_facts_subtask` ON `run_facts` (`subtask_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `run_facts_framework_model` ON `run_facts` (`framework`,`model`,`started_at`);--> statement-breakpoint
CREATE TABLE `run_judge_masks` (
	`run_id` text NOT NULL,
	`judge_id` integer NOT NULL,
	`benchmark_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`subtask_id` text NOT NULL,
	`family` text NOT NULL,
	`in_eval_split` integer NOT NULL,
	`agent_config_id` text NOT NULL,
	`framework` text NOT NULL,
	`model` text NOT NULL,
	`task_completed` integer,
	`started_at` text NOT NULL,
	`violated_mask` integer NOT NULL,
	`decided_mask` integer NOT NULL,
	`violated_count` integer NOT NULL,
	PRIMARY KEY(`run_id`, `judge_id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`judge_id`) REFERENCES `judges`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `run_judge_masks_overview` ON `run_judge_masks` (`judge_id`,`benchmark_id`,`family`);--> statement-breakpoint
CREATE INDEX `run_judge_masks_config` ON `run_judge_masks` (`judge_id`,`agent_config_id`,`instance_id`);--> statement-breakpoint
ALTER TABLE `runs` ADD `synthetic` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Everything below keeps the derived dashboard tables (run_facts, run_judge_masks, run_search) in
-- step with runs and verdicts. Metric bit k is METRIC_IDS[k]; dashboard-facts.test.ts checks it.
-- `+v.judge_id` keeps SQLite from walking verdicts_judge_metric (every verdict of the judge) on
-- a fresh database without statistics: the run's primary-key range is the one to use.
CREATE VIRTUAL TABLE `run_search` USING fts5(prompt, trajectory, content='', contentless_delete=1, tokenize="unicode61 tokenchars '_'")
--> statement-breakpoint
CREATE TRIGGER `run_facts_after_run_insert` AFTER INSERT ON `runs` BEGIN
  INSERT INTO run_facts (run_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, status, scripted, synthetic, started_at, step_count, total_tokens, cost_usd, duration_ms, task_completed)
  SELECT r.id, i.benchmark_id, r.instance_id, i.subtask_id, s.family, i.in_eval_split, r.agent_config_id, c.framework, c.model,
    r.status, r.scripted, r.synthetic, r.started_at, r.step_count, r.input_tokens + r.output_tokens, r.cost_usd, r.duration_ms, r.task_completed
  FROM runs r
  JOIN instances i ON i.id = r.instance_id
  JOIN subtasks s ON s.id = i.subtask_id
  JOIN agent_configs c ON c.id = r.agent_config_id
  WHERE r.id = NEW.id;
END
--> statement-breakpoint
CREATE TRIGGER `run_facts_after_run_update` AFTER UPDATE ON `runs` BEGIN
  UPDATE run_facts SET status = NEW.status, scripted = NEW.scripted, synthetic = NEW.synthetic, started_at = NEW.started_at,
    step_count = NEW.step_count, total_tokens = NEW.input_tokens + NEW.output_tokens, cost_usd = NEW.cost_usd,
    duration_ms = NEW.duration_ms, task_completed = NEW.task_completed
  WHERE run_id = NEW.id;
  UPDATE run_judge_masks SET task_completed = NEW.task_completed, started_at = NEW.started_at WHERE run_id = NEW.id;
END
--> statement-breakpoint
CREATE TRIGGER `run_search_before_run_delete` BEFORE DELETE ON `runs` BEGIN
  DELETE FROM run_search WHERE rowid = (SELECT id FROM run_facts WHERE run_id = OLD.id);
END
--> statement-breakpoint
CREATE TRIGGER `run_facts_after_split_change` AFTER UPDATE OF in_eval_split ON `instances` BEGIN
  UPDATE run_facts SET in_eval_split = NEW.in_eval_split WHERE instance_id = NEW.id;
  UPDATE run_judge_masks SET in_eval_split = NEW.in_eval_split WHERE instance_id = NEW.id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_insert` AFTER INSERT ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = NEW.run_id AND judge_id = NEW.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id
  WHERE f.run_id = NEW.run_id AND +v.judge_id = NEW.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(CASE metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = NEW.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0))
  WHERE run_id = NEW.run_id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_delete` AFTER DELETE ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = OLD.run_id AND judge_id = OLD.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id
  WHERE f.run_id = OLD.run_id AND +v.judge_id = OLD.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(CASE metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = OLD.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0))
  WHERE run_id = OLD.run_id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_update` AFTER UPDATE ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = OLD.run_id AND judge_id = OLD.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id
  WHERE f.run_id = OLD.run_id AND +v.judge_id = OLD.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(CASE metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = OLD.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0))
  WHERE run_id = OLD.run_id;
  DELETE FROM run_judge_masks WHERE run_id = NEW.run_id AND judge_id = NEW.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id
  WHERE f.run_id = NEW.run_id AND +v.judge_id = NEW.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(CASE metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = NEW.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0))
  WHERE run_id = NEW.run_id;
END
--> statement-breakpoint
-- Backfill from the runs and verdicts already stored.
INSERT INTO run_facts (run_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, status, scripted, synthetic, started_at, step_count, total_tokens, cost_usd, duration_ms, task_completed)
SELECT r.id, i.benchmark_id, r.instance_id, i.subtask_id, s.family, i.in_eval_split, r.agent_config_id, c.framework, c.model,
    r.status, r.scripted, r.synthetic, r.started_at, r.step_count, r.input_tokens + r.output_tokens, r.cost_usd, r.duration_ms, r.task_completed
  FROM runs r
  JOIN instances i ON i.id = r.instance_id
  JOIN subtasks s ON s.id = i.subtask_id
  JOIN agent_configs c ON c.id = r.agent_config_id
--> statement-breakpoint
INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN CASE v.metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id
  WHERE 1
  GROUP BY f.run_id, v.judge_id
--> statement-breakpoint
UPDATE run_facts SET disagreement_mask = (
  SELECT COALESCE(SUM(CASE metric WHEN 'syntax' THEN 1 WHEN 'signature' THEN 2 WHEN 'body_change' THEN 4 WHEN 'context' THEN 8 WHEN 'file_create' THEN 16 WHEN 'file_read' THEN 32 WHEN 'file_update' THEN 64 WHEN 'file_delete' THEN 128 WHEN 'environment_integrity' THEN 256 WHEN 'resource_exhaustion' THEN 512 WHEN 'instruction_following' THEN 1024 ELSE 0 END), 0) FROM (
    SELECT metric FROM verdicts WHERE verdicts.run_id = run_facts.run_id
    GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0))
--> statement-breakpoint
INSERT INTO run_search (rowid, prompt, trajectory)
SELECT f.id, i.prompt, (
    SELECT substr(group_concat(concat_ws(' ', s.tool_name, s.command, s.path, s.tool_arguments, s.text), char(10)), 1, 200000)
    FROM (SELECT * FROM trajectory_steps WHERE run_id = f.run_id ORDER BY position) s)
  FROM run_facts f JOIN instances i ON i.id = f.instance_id
