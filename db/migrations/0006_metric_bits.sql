CREATE TABLE `metric_bits` (
	`metric` text PRIMARY KEY NOT NULL,
	`bit` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `metric_bits_bit_unique` ON `metric_bits` (`bit`);
--> statement-breakpoint
-- The dashboard triggers read a metric's bit from metric_bits instead of a CASE over the metric
-- ids, so a new metric needs no migration: db/client.ts adds its row from lib/metrics/catalog.ts
-- when a database is opened. The rows below are the catalog's bits when this migration was
-- written (the ones migration 0002 wrote into every stored mask); db/metric-bits.test.ts checks
-- them and the live triggers against the catalog. Masks already stored are unchanged.
INSERT INTO `metric_bits` (`metric`, `bit`) VALUES ('syntax', 0), ('signature', 1), ('body_change', 2), ('context', 3), ('file_create', 4), ('file_read', 5), ('file_update', 6), ('file_delete', 7), ('environment_integrity', 8), ('resource_exhaustion', 9), ('instruction_following', 10);
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_insert`;
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_delete`;
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_update`;
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_insert` AFTER INSERT ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = NEW.run_id AND judge_id = NEW.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id LEFT JOIN metric_bits b ON b.metric = v.metric
  WHERE f.run_id = NEW.run_id AND +v.judge_id = NEW.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(1 << b.bit), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = NEW.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
    LEFT JOIN metric_bits b ON b.metric = d.metric)
  WHERE run_id = NEW.run_id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_delete` AFTER DELETE ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = OLD.run_id AND judge_id = OLD.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id LEFT JOIN metric_bits b ON b.metric = v.metric
  WHERE f.run_id = OLD.run_id AND +v.judge_id = OLD.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(1 << b.bit), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = OLD.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
    LEFT JOIN metric_bits b ON b.metric = d.metric)
  WHERE run_id = OLD.run_id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_update` AFTER UPDATE ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = OLD.run_id AND judge_id = OLD.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id LEFT JOIN metric_bits b ON b.metric = v.metric
  WHERE f.run_id = OLD.run_id AND +v.judge_id = OLD.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(1 << b.bit), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = OLD.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
    LEFT JOIN metric_bits b ON b.metric = d.metric)
  WHERE run_id = OLD.run_id;
  DELETE FROM run_judge_masks WHERE run_id = NEW.run_id AND judge_id = NEW.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model,
    f.task_completed, f.started_at,
    SUM(CASE WHEN v.value = 'violated' THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(CASE WHEN v.value IN ('violated', 'not_violated') THEN COALESCE(1 << b.bit, 0) ELSE 0 END),
    SUM(v.value = 'violated')
  FROM run_facts f JOIN verdicts v ON v.run_id = f.run_id LEFT JOIN metric_bits b ON b.metric = v.metric
  WHERE f.run_id = NEW.run_id AND +v.judge_id = NEW.judge_id
  GROUP BY f.run_id, v.judge_id;
  UPDATE run_facts SET disagreement_mask = (
    SELECT COALESCE(SUM(1 << b.bit), 0) FROM (
      SELECT metric FROM verdicts WHERE run_id = NEW.run_id
      GROUP BY metric HAVING SUM(value = 'violated') > 0 AND SUM(value = 'not_violated') > 0) d
    LEFT JOIN metric_bits b ON b.metric = d.metric)
  WHERE run_id = NEW.run_id;
END
