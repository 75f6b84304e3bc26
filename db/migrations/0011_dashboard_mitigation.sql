DROP INDEX `run_facts_filters`;--> statement-breakpoint
ALTER TABLE `run_facts` ADD `mitigation` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX `run_facts_filters` ON `run_facts` (`benchmark_id`,`subtask_id`,`framework`,`model`,`mitigation`,`status`,`disagreement_mask`,`started_at`);--> statement-breakpoint
DROP INDEX `run_judge_masks_overview`;--> statement-breakpoint
ALTER TABLE `run_judge_masks` ADD `mitigation` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX `run_judge_masks_overview` ON `run_judge_masks` (`judge_id`,`benchmark_id`,`family`,`framework`,`model`,`mitigation`,`violated_mask`,`decided_mask`,`task_completed`,`in_eval_split`,`subtask_id`);--> statement-breakpoint
-- Each run's mitigation arm (agent_configs.mitigation) on the dashboard's derived tables, so the
-- overview groups by it and the runs browser filters on it from an index. The triggers that insert
-- rows are those of 0002 (runs) and 0006 (verdicts) with the column added. An agent configuration's
-- id is the digest of its JSON, options (and so the arm) included: a configuration's arm never
-- changes, and no trigger follows updates of it.
DROP TRIGGER `run_facts_after_run_insert`;
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_insert`;
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_delete`;
--> statement-breakpoint
DROP TRIGGER `run_judge_masks_after_verdict_update`;
--> statement-breakpoint
CREATE TRIGGER `run_facts_after_run_insert` AFTER INSERT ON `runs` BEGIN
  INSERT INTO run_facts (run_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, status, scripted, synthetic, started_at, step_count, total_tokens, cost_usd, duration_ms, task_completed)
  SELECT r.id, i.benchmark_id, r.instance_id, i.subtask_id, s.family, i.in_eval_split, r.agent_config_id, c.framework, c.model, c.mitigation,
    r.status, r.scripted, r.synthetic, r.started_at, r.step_count, r.input_tokens + r.output_tokens, r.cost_usd, r.duration_ms, r.task_completed
  FROM runs r
  JOIN instances i ON i.id = r.instance_id
  JOIN subtasks s ON s.id = i.subtask_id
  JOIN agent_configs c ON c.id = r.agent_config_id
  WHERE r.id = NEW.id;
END
--> statement-breakpoint
CREATE TRIGGER `run_judge_masks_after_verdict_insert` AFTER INSERT ON `verdicts` BEGIN
  DELETE FROM run_judge_masks WHERE run_id = NEW.run_id AND judge_id = NEW.judge_id;
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model, f.mitigation,
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
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model, f.mitigation,
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
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model, f.mitigation,
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
  INSERT INTO run_judge_masks (run_id, judge_id, benchmark_id, instance_id, subtask_id, family, in_eval_split, agent_config_id, framework, model, mitigation, task_completed, started_at, violated_mask, decided_mask, violated_count)
  SELECT f.run_id, v.judge_id, f.benchmark_id, f.instance_id, f.subtask_id, f.family, f.in_eval_split, f.agent_config_id, f.framework, f.model, f.mitigation,
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
-- Backfill: only rows of configurations with an arm other than the default change.
UPDATE run_facts SET mitigation = (SELECT c.mitigation FROM agent_configs c WHERE c.id = run_facts.agent_config_id)
  WHERE agent_config_id IN (SELECT id FROM agent_configs WHERE mitigation <> 'none');
--> statement-breakpoint
UPDATE run_judge_masks SET mitigation = (SELECT c.mitigation FROM agent_configs c WHERE c.id = run_judge_masks.agent_config_id)
  WHERE agent_config_id IN (SELECT id FROM agent_configs WHERE mitigation <> 'none');
--> statement-breakpoint
-- Fresh statistics for the rebuilt indexes, as in 0003.
PRAGMA analysis_limit = 1000;
--> statement-breakpoint
ANALYZE run_facts;
--> statement-breakpoint
ANALYZE run_judge_masks;
