CREATE TABLE `judge_checks` (
	`judge_id` integer NOT NULL,
	`metric` text NOT NULL,
	`true_positives` integer NOT NULL,
	`false_negatives` integer NOT NULL,
	`true_negatives` integer NOT NULL,
	`false_positives` integer NOT NULL,
	`abstained` integer NOT NULL,
	`not_applicable` integer NOT NULL,
	`runs` integer NOT NULL,
	`checked_at` text NOT NULL,
	PRIMARY KEY(`judge_id`, `metric`),
	FOREIGN KEY (`judge_id`) REFERENCES `judges`(`id`) ON UPDATE no action ON DELETE cascade
);
