CREATE TABLE `metric_counts` (
	`judge_id` integer NOT NULL,
	`benchmark_id` text NOT NULL,
	`family` text NOT NULL,
	`framework` text NOT NULL,
	`model` text NOT NULL,
	`mitigation` text NOT NULL,
	`bit` integer NOT NULL,
	`in_eval_split` integer NOT NULL,
	`subtask_id` text NOT NULL,
	`agent_config_id` text NOT NULL,
	`runs` integer NOT NULL,
	`violated` integer NOT NULL,
	`decided` integer NOT NULL,
	PRIMARY KEY(`judge_id`, `benchmark_id`, `family`, `framework`, `model`, `mitigation`, `bit`, `in_eval_split`, `subtask_id`, `agent_config_id`)
);
--> statement-breakpoint
-- Everything below keeps metric_counts (the overview's counts per metric) in step with
-- run_judge_masks, whatever writes those (their triggers or db/queries/bulk-facts.ts), as
-- migration 0013 does for mask_counts. dashboard-counts.test.ts checks the counts against a
-- GROUP BY of the rows after inserts, updates and deletes.
CREATE TRIGGER `metric_counts_after_mask_insert` AFTER INSERT ON `run_judge_masks` BEGIN
  INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
  SELECT NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, b.bit, NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1, ((NEW.violated_mask >> b.bit) & 1), 1
  FROM metric_bits b WHERE (NEW.decided_mask >> b.bit) & 1
  UNION ALL
  SELECT NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, -1, NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1, (NEW.task_completed IS 1), (NEW.task_completed IS NOT NULL)
  WHERE true
  ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + excluded.runs, violated = violated + excluded.violated, decided = decided + excluded.decided;
END
--> statement-breakpoint
CREATE TRIGGER `metric_counts_after_mask_delete` AFTER DELETE ON `run_judge_masks` BEGIN
  INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
  SELECT OLD.judge_id, OLD.benchmark_id, OLD.family, OLD.framework, OLD.model, OLD.mitigation, b.bit, OLD.in_eval_split, OLD.subtask_id, OLD.agent_config_id, -1, -((OLD.violated_mask >> b.bit) & 1), -1
  FROM metric_bits b WHERE (OLD.decided_mask >> b.bit) & 1
  UNION ALL
  SELECT OLD.judge_id, OLD.benchmark_id, OLD.family, OLD.framework, OLD.model, OLD.mitigation, -1, OLD.in_eval_split, OLD.subtask_id, OLD.agent_config_id, -1, -(OLD.task_completed IS 1), -(OLD.task_completed IS NOT NULL)
  WHERE true
  ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + excluded.runs, violated = violated + excluded.violated, decided = decided + excluded.decided;
  DELETE FROM metric_counts WHERE runs = 0 AND judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
END
--> statement-breakpoint
CREATE TRIGGER `metric_counts_after_mask_update` AFTER UPDATE OF judge_id, benchmark_id, family, framework, model, mitigation, violated_mask, decided_mask, task_completed, in_eval_split, subtask_id, agent_config_id ON `run_judge_masks` BEGIN
  INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
  SELECT OLD.judge_id, OLD.benchmark_id, OLD.family, OLD.framework, OLD.model, OLD.mitigation, b.bit, OLD.in_eval_split, OLD.subtask_id, OLD.agent_config_id, -1, -((OLD.violated_mask >> b.bit) & 1), -1
  FROM metric_bits b WHERE (OLD.decided_mask >> b.bit) & 1
  UNION ALL
  SELECT OLD.judge_id, OLD.benchmark_id, OLD.family, OLD.framework, OLD.model, OLD.mitigation, -1, OLD.in_eval_split, OLD.subtask_id, OLD.agent_config_id, -1, -(OLD.task_completed IS 1), -(OLD.task_completed IS NOT NULL)
  WHERE true
  ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + excluded.runs, violated = violated + excluded.violated, decided = decided + excluded.decided;
  DELETE FROM metric_counts WHERE runs = 0 AND judge_id = OLD.judge_id AND benchmark_id = OLD.benchmark_id AND family = OLD.family AND framework = OLD.framework AND model = OLD.model AND mitigation = OLD.mitigation AND in_eval_split = OLD.in_eval_split AND subtask_id = OLD.subtask_id AND agent_config_id = OLD.agent_config_id;
  INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
  SELECT NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, b.bit, NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1, ((NEW.violated_mask >> b.bit) & 1), 1
  FROM metric_bits b WHERE (NEW.decided_mask >> b.bit) & 1
  UNION ALL
  SELECT NEW.judge_id, NEW.benchmark_id, NEW.family, NEW.framework, NEW.model, NEW.mitigation, -1, NEW.in_eval_split, NEW.subtask_id, NEW.agent_config_id, 1, (NEW.task_completed IS 1), (NEW.task_completed IS NOT NULL)
  WHERE true
  ON CONFLICT (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id) DO UPDATE SET runs = runs + excluded.runs, violated = violated + excluded.violated, decided = decided + excluded.decided;
END
--> statement-breakpoint
-- Backfill from the rows already stored.
INSERT INTO metric_counts (judge_id, benchmark_id, family, framework, model, mitigation, bit, in_eval_split, subtask_id, agent_config_id, runs, violated, decided)
SELECT m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, b.bit, m.in_eval_split, m.subtask_id, m.agent_config_id, count(*), sum((m.violated_mask >> b.bit) & 1), count(*)
FROM run_judge_masks m JOIN metric_bits b ON (m.decided_mask >> b.bit) & 1
GROUP BY m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, b.bit, m.in_eval_split, m.subtask_id, m.agent_config_id
UNION ALL
SELECT m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, -1, m.in_eval_split, m.subtask_id, m.agent_config_id, count(*), sum(m.task_completed IS 1), sum(m.task_completed IS NOT NULL)
FROM run_judge_masks m
GROUP BY m.judge_id, m.benchmark_id, m.family, m.framework, m.model, m.mitigation, m.in_eval_split, m.subtask_id, m.agent_config_id
