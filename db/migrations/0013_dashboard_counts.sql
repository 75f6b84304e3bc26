CREATE TABLE `mask_counts` (
	`judge_id` integer NOT NULL,
	`benchmark_id` text NOT NULL,
	`family` text NOT NULL,
	`framework` text NOT NULL,
	`model` text NOT NULL,
	`mitigation` text NOT NULL,
	`violated_mask` integer NOT NULL,
	`decided_mask` integer NOT NULL,
	`task_completed` integer NOT NULL,
	`in_eval_split` integer NOT NULL,
	`subtask_id` text NOT NULL,
	`agent_config_id` text NOT NULL,
	`runs` integer NOT NULL,
	PRIMARY KEY(`judge_id`, `benchmark_id`, `family`, `framework`, `model`, `mitigation`, `violated_mask`, `decided_mask`, `task_completed`, `in_eval_split`, `subtask_id`, `agent_config_id`)
);
--> statement-breakpoint
CREATE TABLE `run_fact_counts` (
	`benchmark_id` text NOT NULL,
	`subtask_id` text NOT NULL,
	`framework` text NOT NULL,
	`model` text NOT NULL,
	`mitigation` text NOT NULL,
	`status` text NOT NULL,
	`disagreement` integer NOT NULL,
	`runs` integer NOT NULL,
	PRIMARY KEY(`benchmark_id`, `subtask_id`, `framework`, `model`, `mitigation`, `status`, `disagreement`)
);
--> statement-breakpoint
-- Everything below keeps mask_counts and run_fact_counts (the overview's and the runs browser's
-- counts) in step with run_judge_masks and run_facts, whatever writes those (their own triggers of
-- migrations 0002, 0006 and 0011, or db/queries/bulk-facts.ts). dashboard-counts.test.ts checks
-- the counts against a GROUP BY of the rows after inserts, updates and deletes.
CREATE TRIGGER `mask_counts_after_mask_insert` AFTER INSERT ON `run_judge_masks` BEGIN
  INSERT INTO mask_counts (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id, runs) VALUES (NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, NEW.violated_mask, NEW.decided_mask, COALESCE(NEW.task_completed, -1), NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1)
    ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + 1;
END
--> statement-breakpoint
CREATE TRIGGER `mask_counts_after_mask_delete` AFTER DELETE ON `run_judge_masks` BEGIN
  UPDATE mask_counts SET runs = runs - 1 WHERE judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND violated_mask = OLD.violated_mask AND decided_mask = OLD.decided_mask AND task_completed = COALESCE(OLD.task_completed, -1) AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
  DELETE FROM mask_counts WHERE runs = 0 AND judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND violated_mask = OLD.violated_mask AND decided_mask = OLD.decided_mask AND task_completed = COALESCE(OLD.task_completed, -1) AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
END
--> statement-breakpoint
CREATE TRIGGER `mask_counts_after_mask_update` AFTER UPDATE OF judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id ON `run_judge_masks` BEGIN
  UPDATE mask_counts SET runs = runs - 1 WHERE judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND violated_mask = OLD.violated_mask AND decided_mask = OLD.decided_mask AND task_completed = COALESCE(OLD.task_completed, -1) AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
  DELETE FROM mask_counts WHERE runs = 0 AND judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND violated_mask = OLD.violated_mask AND decided_mask = OLD.decided_mask AND task_completed = COALESCE(OLD.task_completed, -1) AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
  INSERT INTO mask_counts (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id, runs) VALUES (NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, NEW.violated_mask, NEW.decided_mask, COALESCE(NEW.task_completed, -1), NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1)
    ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + 1;
END
--> statement-breakpoint
CREATE TRIGGER `run_fact_counts_after_fact_insert` AFTER INSERT ON `run_facts` BEGIN
  INSERT INTO run_fact_counts (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement, runs) VALUES (NEW.benchmark_id, NEW.subtask_id, NEW.framework, NEW.model, NEW.mitigation, NEW.status, NEW.disagreement_mask <> 0, 1)
    ON CONFLICT (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement) DO UPDATE SET runs = runs + 1;
END
--> statement-breakpoint
CREATE TRIGGER `run_fact_counts_after_fact_delete` AFTER DELETE ON `run_facts` BEGIN
  UPDATE run_fact_counts SET runs = runs - 1 WHERE benchmark_id = OLD.benchmark_id AND subtask_id = OLD.subtask_id AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND status = OLD.status AND disagreement = (OLD.disagreement_mask <> 0);
  DELETE FROM run_fact_counts WHERE runs = 0 AND benchmark_id = OLD.benchmark_id AND subtask_id = OLD.subtask_id AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND status = OLD.status AND disagreement = (OLD.disagreement_mask <> 0);
END
--> statement-breakpoint
CREATE TRIGGER `run_fact_counts_after_fact_update` AFTER UPDATE OF benchmark_id, subtask_id, framework, model, mitigation, status, disagreement_mask ON `run_facts` BEGIN
  UPDATE run_fact_counts SET runs = runs - 1 WHERE benchmark_id = OLD.benchmark_id AND subtask_id = OLD.subtask_id AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND status = OLD.status AND disagreement = (OLD.disagreement_mask <> 0);
  DELETE FROM run_fact_counts WHERE runs = 0 AND benchmark_id = OLD.benchmark_id AND subtask_id = OLD.subtask_id AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND status = OLD.status AND disagreement = (OLD.disagreement_mask <> 0);
  INSERT INTO run_fact_counts (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement, runs) VALUES (NEW.benchmark_id, NEW.subtask_id, NEW.framework, NEW.model, NEW.mitigation, NEW.status, NEW.disagreement_mask <> 0, 1)
    ON CONFLICT (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement) DO UPDATE SET runs = runs + 1;
END
--> statement-breakpoint
-- Backfill from the rows already stored.
INSERT INTO mask_counts (judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id, runs)
SELECT judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, COALESCE(task_completed, -1), in_eval_split, subtask_id, agent_config_id, count(*)
FROM run_judge_masks GROUP BY judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, COALESCE(task_completed, -1), in_eval_split, subtask_id, agent_config_id
--> statement-breakpoint
INSERT INTO run_fact_counts (benchmark_id, subtask_id, framework, model, mitigation, status, disagreement, runs)
SELECT benchmark_id, subtask_id, framework, model, mitigation, status, disagreement_mask <> 0, count(*)
FROM run_facts GROUP BY benchmark_id, subtask_id, framework, model, mitigation, status, disagreement_mask <> 0
