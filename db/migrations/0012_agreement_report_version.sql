ALTER TABLE `agreement_sets` ADD `report_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `agreement_items_run` ON `agreement_items` (`run_id`);
--> statement-breakpoint
-- Every write to what an agreement set's report is computed from bumps the set's report_version,
-- the key of the cached report (db/queries/agreement-report.ts); agreement-report.test.ts checks
-- that each of these writes gives a fresh report. Verdicts and usernames are not per set: their
-- triggers bump every set that holds the run (agreement_items_run) or enrols the user.
CREATE TRIGGER `agreement_version_after_set_update` AFTER UPDATE OF `name`, `seed`, `size`, `design`, `annotators_per_item` ON `agreement_sets` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_insert` AFTER INSERT ON `agreement_items` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_update` AFTER UPDATE ON `agreement_items` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id IN (OLD.set_id, NEW.set_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_delete` AFTER DELETE ON `agreement_items` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = OLD.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_assignment_insert` AFTER INSERT ON `assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_assignment_update` AFTER UPDATE ON `assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id IN (OLD.set_id, NEW.set_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_assignment_delete` AFTER DELETE ON `assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = OLD.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_assignment_insert` AFTER INSERT ON `item_assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_assignment_update` AFTER UPDATE ON `item_assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id IN (OLD.set_id, NEW.set_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_item_assignment_delete` AFTER DELETE ON `item_assignments` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = OLD.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_label_insert` AFTER INSERT ON `labels` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_label_update` AFTER UPDATE ON `labels` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id IN (OLD.set_id, NEW.set_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_label_delete` AFTER DELETE ON `labels` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = OLD.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_adjudication_insert` AFTER INSERT ON `adjudications` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = NEW.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_adjudication_update` AFTER UPDATE ON `adjudications` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id IN (OLD.set_id, NEW.set_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_adjudication_delete` AFTER DELETE ON `adjudications` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1 WHERE id = OLD.set_id;
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_verdict_insert` AFTER INSERT ON `verdicts` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1
  WHERE id IN (SELECT set_id FROM agreement_items WHERE run_id = NEW.run_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_verdict_update` AFTER UPDATE ON `verdicts` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1
  WHERE id IN (SELECT set_id FROM agreement_items WHERE run_id IN (OLD.run_id, NEW.run_id));
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_verdict_delete` AFTER DELETE ON `verdicts` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1
  WHERE id IN (SELECT set_id FROM agreement_items WHERE run_id = OLD.run_id);
END
--> statement-breakpoint
CREATE TRIGGER `agreement_version_after_username_update` AFTER UPDATE OF `username` ON `users` BEGIN
  UPDATE agreement_sets SET report_version = report_version + 1
  WHERE id IN (SELECT set_id FROM assignments WHERE user_id = NEW.id);
END
