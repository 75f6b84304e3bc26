/**
 * The whole data flow in one schema:
 * benchmarks -> instances -> runs (+ steps, file changes, environment, artifacts)
 * -> verdicts (per judge) -> agreement sets -> labels.  Jobs and users sit beside it.
 *
 * Times are UTC ISO-8601 strings (`2026-12-02T10:00:00.000Z`), which sort as text.
 * JSON columns hold values validated by the zod schemas in `lib/`.
 */
import type { Mitigation } from "@/lib/codekit/arms";
import type { MitigationPlan } from "@/lib/codekit/mitigation";
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { CapturedEvidence, RunSource } from "@/lib/bundle/schema";

const createdAt = () =>
  text("created_at")
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

// ---------------------------------------------------------------- benchmark

export const benchmarks = sqliteTable("benchmarks", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** deveval | sample-corpus | imported | external (brought by runs made elsewhere) */
  source: text("source").notNull(),
  seed: integer("seed"),
  /** How it was built: paths, options, tool versions. */
  config: text("config", { mode: "json" })
    .notNull()
    .default(sql`'{}'`),
  createdAt: createdAt(),
});

export const subtasks = sqliteTable("subtasks", {
  id: text("id").primaryKey(),
  family: text("family").notNull(),
  label: text("label").notNull(),
  position: integer("position").notNull(),
});

/** One repository as the benchmark saw it; instances store their setup as a change over it. */
export const repoSnapshots = sqliteTable(
  "repo_snapshots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    benchmarkId: text("benchmark_id")
      .notNull()
      .references(() => benchmarks.id, { onDelete: "cascade" }),
    projectPath: text("project_path").notNull(),
    /** sha256 over the sorted manifest; identifies the snapshot's content. */
    digest: text("digest").notNull(),
    fileCount: integer("file_count").notNull(),
    totalBytes: integer("total_bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("repo_snapshots_benchmark_project").on(t.benchmarkId, t.projectPath)],
);

export const snapshotFiles = sqliteTable(
  "snapshot_files",
  {
    snapshotId: integer("snapshot_id")
      .notNull()
      .references(() => repoSnapshots.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => fileContents.sha256),
    mode: integer("mode").notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.path] })],
);

export const instances = sqliteTable(
  "instances",
  {
    id: text("id").primaryKey(),
    benchmarkId: text("benchmark_id")
      .notNull()
      .references(() => benchmarks.id, { onDelete: "cascade" }),
    subtaskId: text("subtask_id")
      .notNull()
      .references(() => subtasks.id),
    /** `<Topic>/<repo>`: the repository the instance is set in. */
    projectPath: text("project_path"),
    /** The DevEval namespace (or sample id) the instance was derived from. */
    sourceSample: text("source_sample"),
    snapshotId: integer("snapshot_id").references(() => repoSnapshots.id),
    prompt: text("prompt").notNull(),
    paraphraseIndex: integer("paraphrase_index"),
    /** BoundaryContract: mustRead, mayChange, expectedCreate, expectedDelete. */
    contract: text("contract", { mode: "json" }).notNull(),
    /** GroundTruth: original file, target, signature, docstring, body, dependencies. */
    groundTruth: text("ground_truth", { mode: "json" }).notNull(),
    /** Changes applied over the snapshot to set the task up (body removed, file planted, ...). */
    setup: text("setup", { mode: "json" })
      .notNull()
      .default(sql`'[]'`),
    inEvalSplit: integer("in_eval_split", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("instances_benchmark_subtask").on(t.benchmarkId, t.subtaskId)],
);

// ---------------------------------------------------------------- runs

/** Content-addressed store: every file body (workspace files, bundle members) is kept once. */
export const fileContents = sqliteTable("file_contents", {
  sha256: text("sha256").primaryKey(),
  size: integer("size").notNull(),
  isText: integer("is_text", { mode: "boolean" }).notNull(),
  content: blob("content", { mode: "buffer" }).notNull(),
});

export const agentConfigs = sqliteTable("agent_configs", {
  /** sha256 prefix of the canonical JSON of the configuration: same config, same id. */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  framework: text("framework").notNull(),
  frameworkVersion: text("framework_version"),
  model: text("model").notNull(),
  provider: text("provider").notNull(),
  tools: text("tools", { mode: "json" }).notNull(),
  guidelines: text("guidelines"),
  limits: text("limits", { mode: "json" }).notNull(),
  options: text("options", { mode: "json" }).notNull(),
  /** The mitigation arm (lib/codekit/arms.ts): `options.mitigation`, `none` when absent. */
  mitigation: text("mitigation").$type<Mitigation>().notNull().default("none"),
  createdAt: createdAt(),
});

export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** build-benchmark | run-agents | evaluate | ingest | ... */
    kind: text("kind").notNull(),
    params: text("params", { mode: "json" }).notNull(),
    /** queued | running | succeeded | failed | cancelled */
    status: text("status").notNull().default("queued"),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total"),
    message: text("message"),
    log: text("log").notNull().default(""),
    error: text("error"),
    cancelRequested: integer("cancel_requested", { mode: "boolean" }).notNull().default(false),
    workerPid: integer("worker_pid"),
    /** The worker holding the lease: host, pid and start time (a pid alone is reused). */
    workerId: text("worker_id"),
    /** The holder's last sign of life; a running job whose lease has expired lost its worker. */
    heartbeatAt: text("heartbeat_at"),
    leaseExpiresAt: text("lease_expires_at"),
    createdAt: createdAt(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [index("jobs_status").on(t.status, t.id)],
);

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    instanceId: text("instance_id")
      .notNull()
      .references(() => instances.id),
    agentConfigId: text("agent_config_id")
      .notNull()
      .references(() => agentConfigs.id),
    /** completed | failed (a run killed at any point is failed with its exit reason) */
    status: text("status").notNull(),
    /** One of EXIT_REASONS (lib/bundle/schema.ts): finished, a limit (step, time, output, memory, process, disk), error, killed, cancelled */
    exitReason: text("exit_reason").notNull(),
    error: text("error"),
    /** Produced by a scripted (mock) model: shown as such everywhere. */
    scripted: integer("scripted", { mode: "boolean" }).notNull().default(false),
    /** Generated by `seed:scale` to load-test the dashboard: never a real agent run. */
    synthetic: integer("synthetic", { mode: "boolean" }).notNull().default(false),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    stepCount: integer("step_count").notNull(),
    modelCalls: integer("model_calls").notNull().default(0),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    costUsd: real("cost_usd"),
    taskCompleted: integer("task_completed", { mode: "boolean" }),
    filesBefore: integer("files_before").notNull(),
    filesAfter: integer("files_after").notNull(),
    /** sha256 over the bundle's members: re-importing the same bundle is a no-op. */
    bundleDigest: text("bundle_digest").notNull(),
    bundleVersion: integer("bundle_version").notNull(),
    /** cli | http | runner */
    importedVia: text("imported_via").notNull(),
    /** A run made elsewhere: the foreign log and reader it came from (RunSource, lib/bundle/schema.ts); null for ours. */
    source: text("source", { mode: "json" }).$type<RunSource>(),
    /** What the run's record captured (CapturedEvidence); null = everything, as our runner records. */
    evidence: text("evidence", { mode: "json" }).$type<CapturedEvidence>(),
    /** The absolute directory the agent worked in (`/testbed`), when the log says it. */
    workspaceRoot: text("workspace_root"),
    /** The Code-KIT rules and tools this run was offered, and how the selector chose them (MitigationPlan); null for none. */
    mitigation: text("mitigation", { mode: "json" }).$type<MitigationPlan>(),
    jobId: integer("job_id").references(() => jobs.id, { onDelete: "set null" }),
    importedAt: createdAt(),
  },
  (t) => [
    index("runs_instance").on(t.instanceId),
    index("runs_agent_config").on(t.agentConfigId),
    index("runs_started_at").on(t.startedAt),
  ],
);

/**
 * A run's task completion (DESIGN.md 2b, lib/task-check): one row per run, the latest check.
 * Mirrored into runs.task_completed (true / false; a not-checkable run keeps what its bundle
 * claimed, `claimed`), from where the dashboard's fact tables copy it.
 */
export const taskChecks = sqliteTable("task_checks", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  /** completed | not_completed | not_checkable */
  outcome: text("outcome").notNull(),
  reason: text("reason").notNull(),
  /** The tail of what the check printed (lib/task-check MAX_CHECK_OUTPUT_BYTES). */
  output: text("output").notNull().default(""),
  /** The bundle manifest's own `taskCompleted`: a claim from whoever made the run, kept apart. */
  claimed: integer("claimed", { mode: "boolean" }),
  checkerVersion: integer("checker_version").notNull(),
  checkedAt: text("checked_at").notNull(),
  durationMs: integer("duration_ms").notNull(),
});

export const trajectorySteps = sqliteTable(
  "trajectory_steps",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The step id from the bundle; citations refer to it. */
    stepId: text("step_id").notNull(),
    /** message | tool_call | observation | shell | file_read | file_write | file_delete */
    kind: text("kind").notNull(),
    role: text("role"),
    timestamp: text("timestamp"),
    text: text("text"),
    toolName: text("tool_name"),
    toolArguments: text("tool_arguments", { mode: "json" }),
    callId: text("call_id"),
    command: text("command"),
    exitCode: integer("exit_code"),
    isError: integer("is_error", { mode: "boolean" }),
    path: text("path"),
    durationMs: integer("duration_ms"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.position] }),
    uniqueIndex("trajectory_steps_run_step").on(t.runId, t.stepId),
  ],
);

export const fileChanges = sqliteTable(
  "file_changes",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    /** created | updated | deleted (content-hash comparison of full manifests, never mtimes) */
    kind: text("kind").notNull(),
    beforeSha256: text("before_sha256").references(() => fileContents.sha256),
    afterSha256: text("after_sha256").references(() => fileContents.sha256),
    beforeMode: integer("before_mode"),
    afterMode: integer("after_mode"),
    beforeSize: integer("before_size"),
    afterSize: integer("after_size"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.path] })],
);

export const environmentSnapshots = sqliteTable(
  "environment_snapshots",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** before | after */
    phase: text("phase").notNull(),
    capturedAt: text("captured_at"),
    snapshot: text("snapshot", { mode: "json" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.phase] })],
);

/** Every member of the imported bundle, by content hash: the bundle can be rebuilt exactly. */
export const runArtifacts = sqliteTable(
  "run_artifacts",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    /** manifest | trajectory | workspace | content | environment | instance | ast_report | verdicts | native */
    kind: text("kind").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => fileContents.sha256),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.path] })],
);

// ---------------------------------------------------------------- evaluation

export const judges = sqliteTable(
  "judges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** rule | llm | external */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    provider: text("provider").notNull().default(""),
    model: text("model").notNull().default(""),
    promptVersion: text("prompt_version").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("judges_identity").on(t.kind, t.name, t.provider, t.model, t.promptVersion)],
);

/**
 * A judge scored against the scripted runs whose ground truth the script knows (lib/agreement/judge-check.ts):
 * the latest check per (judge row, metric), shown beside the human agreement.
 */
export const judgeChecks = sqliteTable(
  "judge_checks",
  {
    judgeId: integer("judge_id")
      .notNull()
      .references(() => judges.id, { onDelete: "cascade" }),
    metric: text("metric").notNull(),
    truePositives: integer("true_positives").notNull(),
    falseNegatives: integer("false_negatives").notNull(),
    trueNegatives: integer("true_negatives").notNull(),
    falsePositives: integer("false_positives").notNull(),
    abstained: integer("abstained").notNull(),
    notApplicable: integer("not_applicable").notNull(),
    /** Scripted runs the judge had verdicts on. */
    runs: integer("runs").notNull(),
    checkedAt: text("checked_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.judgeId, t.metric] })],
);

export const verdicts = sqliteTable(
  "verdicts",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    metric: text("metric").notNull(),
    judgeId: integer("judge_id")
      .notNull()
      .references(() => judges.id),
    /** violated | not_violated | not_applicable | invalid (an unparseable judge response) */
    value: text("value").notNull(),
    rationale: text("rationale").notNull().default(""),
    /** [{stepId} | {path, hunk}] */
    citations: text("citations", { mode: "json" })
      .notNull()
      .default(sql`'[]'`),
    /** Structured evidence naming the element, e.g. "parameter `limit` renamed to `n`". */
    evidence: text("evidence", { mode: "json" })
      .notNull()
      .default(sql`'[]'`),
    rawResponse: text("raw_response"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    costUsd: real("cost_usd"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.metric, t.judgeId] }),
    index("verdicts_judge_metric").on(t.judgeId, t.metric),
  ],
);

/** Identical judge requests are answered from here (key: prompt version + model + input hash). */
export const judgeCache = sqliteTable("judge_cache", {
  key: text("key").primaryKey(),
  response: text("response").notNull(),
  inputTokens: integer("input_tokens"),
  outputTokens: integer("output_tokens"),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- people and agreement

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  displayName: text("display_name").notNull(),
  /** admin | annotator | viewer */
  role: text("role").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
});

export const sessions = sqliteTable("sessions", {
  /** sha256 of the session token; the token itself only lives in the cookie. */
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: text("expires_at").notNull(),
  createdAt: createdAt(),
});

export const agreementSets = sqliteTable("agreement_sets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  seed: integer("seed").notNull(),
  size: integer("size").notNull(),
  /** How the set was drawn: strata (subtask x framework x model), filters, judges compared. */
  design: text("design", { mode: "json" }).notNull(),
  /** How many annotators label each item (k, default 3). */
  annotatorsPerItem: integer("annotators_per_item").notNull().default(3),
  /** After submitting an item, may an annotator see the judges' verdicts and the others' labels? */
  revealAfterSubmit: integer("reveal_after_submit", { mode: "boolean" }).notNull().default(true),
  createdBy: integer("created_by").references(() => users.id),
  createdAt: createdAt(),
  /**
   * Bumped by triggers (migration 0012) on every change to what the set's agreement report is
   * computed from (items, enrolments, labels, submissions, adjudications, verdicts on its runs,
   * usernames): the report cache's key (db/queries/agreement-report.ts).
   */
  reportVersion: integer("report_version").notNull().default(0),
});

export const agreementItems = sqliteTable(
  "agreement_items",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => agreementSets.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    position: integer("position").notNull(),
    /** The stratum the item was drawn from: `subtask|framework|model`. */
    stratum: text("stratum").notNull().default(""),
  },
  // by run: a verdict's trigger finds the sets whose report it changes
  (t) => [primaryKey({ columns: [t.setId, t.runId] }), index("agreement_items_run").on(t.runId)],
);

/** The annotators enrolled in a set (`submittedAt`: when they finished every item given to them). */
export const assignments = sqliteTable(
  "assignments",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => agreementSets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    submittedAt: text("submitted_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.userId] })],
);

/** Who labels which item of a set; `submittedAt` is set when that annotator submits the item. */
export const itemAssignments = sqliteTable(
  "item_assignments",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => agreementSets.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    submittedAt: text("submitted_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.runId, t.userId] }), index("item_assignments_user").on(t.userId, t.setId)],
);

/** One annotator's label of one metric on one item; saved as they go (autosave), final on submit. */
export const labels = sqliteTable(
  "labels",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => agreementSets.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    metric: text("metric").notNull(),
    /** violated | not_violated | cannot_tell */
    value: text("value").notNull(),
    /** The annotator's rationale. */
    note: text("note"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.runId, t.userId, t.metric] })],
);

/** An admin's final label for an item and metric (e.g. a 2-1 split), kept apart from the votes. */
export const adjudications = sqliteTable(
  "adjudications",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => agreementSets.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    metric: text("metric").notNull(),
    /** violated | not_violated */
    value: text("value").notNull(),
    note: text("note").notNull().default(""),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    decidedAt: text("decided_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.runId, t.metric] })],
);

// ---------------------------------------------------------------- dashboard (derived)
//
// The two tables below are derived data for the dashboard's filters and aggregates. Triggers
// (migration 0002; the verdict triggers rewritten in 0006; those that insert rows rewritten again
// in 0011 to carry the mitigation arm) keep them in step with runs and verdicts, whatever writes
// those (import, evaluation, seed scripts), so no write path can forget them. Never write them
// directly.
// A metric's bit in the masks is the catalog's (lib/metrics/catalog.ts): the triggers read it
// from `metric_bits`, which db/client.ts fills from the catalog (db/metric-bits.test.ts).

/** The catalog's metric -> bit, for the triggers; written only by db/client.ts from the catalog. */
export const metricBits = sqliteTable("metric_bits", {
  metric: text("metric").primaryKey(),
  bit: integer("bit").notNull().unique(),
});

/** One row per run: what the overview, compare page and runs browser filter, sort and group by. */
export const runFacts = sqliteTable(
  "run_facts",
  {
    /** Stable integer id: the rowid of the run's full-text document in `run_search`. */
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id")
      .notNull()
      .unique()
      .references(() => runs.id, { onDelete: "cascade" }),
    benchmarkId: text("benchmark_id").notNull(),
    instanceId: text("instance_id").notNull(),
    subtaskId: text("subtask_id").notNull(),
    family: text("family").notNull(),
    inEvalSplit: integer("in_eval_split", { mode: "boolean" }).notNull(),
    agentConfigId: text("agent_config_id").notNull(),
    framework: text("framework").notNull(),
    model: text("model").notNull(),
    /** The configuration's mitigation arm (agent_configs.mitigation). */
    mitigation: text("mitigation").$type<Mitigation>().notNull().default("none"),
    status: text("status").notNull(),
    scripted: integer("scripted", { mode: "boolean" }).notNull(),
    synthetic: integer("synthetic", { mode: "boolean" }).notNull(),
    startedAt: text("started_at").notNull(),
    stepCount: integer("step_count").notNull(),
    totalTokens: integer("total_tokens").notNull(),
    costUsd: real("cost_usd"),
    durationMs: integer("duration_ms").notNull(),
    taskCompleted: integer("task_completed", { mode: "boolean" }),
    /** Metrics on which two judges disagree (one says violated, another not violated). */
    disagreementMask: integer("disagreement_mask").notNull().default(0),
  },
  // One index per sort column of the runs browser, so a page is an index walk, never a sort of
  // every run (bench:dashboard measures them); the row id (the tie-break) is implicit in each.
  (t) => [
    index("run_facts_benchmark_started").on(t.benchmarkId, t.startedAt),
    index("run_facts_benchmark_steps").on(t.benchmarkId, t.stepCount),
    index("run_facts_benchmark_tokens").on(t.benchmarkId, t.totalTokens),
    index("run_facts_benchmark_cost").on(t.benchmarkId, t.costUsd),
    index("run_facts_benchmark_duration").on(t.benchmarkId, t.durationMs),
    index("run_facts_started").on(t.startedAt),
    // counts under any combination of the browser's filters read this index, not the table
    index("run_facts_filters").on(
      t.benchmarkId,
      t.subtaskId,
      t.framework,
      t.model,
      t.mitigation,
      t.status,
      t.disagreementMask,
      t.startedAt,
    ),
  ],
);

/** One row per (run, judge): the judge's verdicts on the run as bit masks over the catalog's metrics. */
export const runJudgeMasks = sqliteTable(
  "run_judge_masks",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    judgeId: integer("judge_id")
      .notNull()
      .references(() => judges.id),
    benchmarkId: text("benchmark_id").notNull(),
    instanceId: text("instance_id").notNull(),
    subtaskId: text("subtask_id").notNull(),
    family: text("family").notNull(),
    inEvalSplit: integer("in_eval_split", { mode: "boolean" }).notNull(),
    agentConfigId: text("agent_config_id").notNull(),
    framework: text("framework").notNull(),
    model: text("model").notNull(),
    /** The configuration's mitigation arm (agent_configs.mitigation). */
    mitigation: text("mitigation").$type<Mitigation>().notNull().default("none"),
    taskCompleted: integer("task_completed", { mode: "boolean" }),
    startedAt: text("started_at").notNull(),
    /** A metric's bit (the catalog's `bit`) set: it is violated. */
    violatedMask: integer("violated_mask").notNull(),
    /** A metric's bit set: it was decided (violated or not violated). */
    decidedMask: integer("decided_mask").notNull(),
    violatedCount: integer("violated_count").notNull(),
  },
  // Covering indexes: each dashboard query reads one index in order and never the table.
  (t) => [
    primaryKey({ columns: [t.runId, t.judgeId] }),
    // overview: GROUP BY family, framework, model, arm and the masks streams over this index
    index("run_judge_masks_overview").on(
      t.judgeId,
      t.benchmarkId,
      t.family,
      t.framework,
      t.model,
      t.mitigation,
      t.violatedMask,
      t.decidedMask,
      t.taskCompleted,
      t.inEvalSplit,
      t.subtaskId,
    ),
    // compare: the latest run of a configuration on each instance, every column it reads (without
    // task_completed each of a configuration's 50,000 judged runs was a table lookup: 0.9 s)
    index("run_judge_masks_config").on(
      t.judgeId,
      t.agentConfigId,
      t.benchmarkId,
      t.instanceId,
      t.startedAt,
      t.runId,
      t.violatedMask,
      t.decidedMask,
      t.taskCompleted,
    ),
    // runs browser: a violated-metric filter, newest first; sorting by violation count
    index("run_judge_masks_started").on(t.judgeId, t.benchmarkId, t.startedAt, t.runId, t.violatedMask),
    index("run_judge_masks_violations").on(t.judgeId, t.benchmarkId, t.violatedCount, t.startedAt, t.runId),
  ],
);

/** The key columns the counts of a judge's masks begin with: what the overview groups by. */
const judgedGroup = () => ({
  judgeId: integer("judge_id").notNull(),
  benchmarkId: text("benchmark_id").notNull(),
  family: text("family").notNull(),
  framework: text("framework").notNull(),
  model: text("model").notNull(),
  mitigation: text("mitigation").$type<Mitigation>().notNull(),
});

/**
 * How many runs_judge_masks rows share each combination of what the overview groups and filters
 * by (and the configuration, for the compare and ablation menus): the overview sums a few
 * thousand of these instead of reading a million masks. Kept by triggers on run_judge_masks
 * (migration 0013); a combination whose count drops to 0 is deleted.
 */
export const maskCounts = sqliteTable(
  "mask_counts",
  {
    ...judgedGroup(),
    violatedMask: integer("violated_mask").notNull(),
    decidedMask: integer("decided_mask").notNull(),
    /** run_judge_masks.task_completed with -1 for null (unknown): a key column cannot be null. */
    taskCompleted: integer("task_completed").notNull(),
    inEvalSplit: integer("in_eval_split", { mode: "boolean" }).notNull(),
    subtaskId: text("subtask_id").notNull(),
    agentConfigId: text("agent_config_id").notNull(),
    runs: integer("runs").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [
        t.judgeId,
        t.benchmarkId,
        t.family,
        t.framework,
        t.model,
        t.mitigation,
        t.violatedMask,
        t.decidedMask,
        t.taskCompleted,
        t.inEvalSplit,
        t.subtaskId,
        t.agentConfigId,
      ],
    }),
  ],
);

/**
 * The overview's counts per metric: for each combination of what it groups and filters by and each
 * metric bit, the runs the judge decided the metric on and those it found violated; bit -1 is the
 * runs themselves (violated: task completed, decided: completion known). Kept by triggers on
 * run_judge_masks (migration 0015) like mask_counts, whose combinations include both masks and so
 * grow with the runs (36,000 rows at 650,000 runs); these are bounded by the configurations,
 * subtasks and metrics. `runs` is how many runs the row counts; a row at 0 is deleted.
 */
export const metricCounts = sqliteTable(
  "metric_counts",
  {
    ...judgedGroup(),
    bit: integer("bit").notNull(),
    inEvalSplit: integer("in_eval_split", { mode: "boolean" }).notNull(),
    subtaskId: text("subtask_id").notNull(),
    agentConfigId: text("agent_config_id").notNull(),
    runs: integer("runs").notNull(),
    violated: integer("violated").notNull(),
    decided: integer("decided").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [
        t.judgeId,
        t.benchmarkId,
        t.family,
        t.framework,
        t.model,
        t.mitigation,
        t.bit,
        t.inEvalSplit,
        t.subtaskId,
        t.agentConfigId,
      ],
    }),
  ],
);

/**
 * How many run_facts rows share each combination of the runs browser's filters other than words
 * and verdicts: its totals without a COUNT over a million rows. Kept by triggers on run_facts
 * (migration 0013); a combination whose count drops to 0 is deleted.
 */
export const runFactCounts = sqliteTable(
  "run_fact_counts",
  {
    benchmarkId: text("benchmark_id").notNull(),
    subtaskId: text("subtask_id").notNull(),
    framework: text("framework").notNull(),
    model: text("model").notNull(),
    mitigation: text("mitigation").$type<Mitigation>().notNull(),
    status: text("status").notNull(),
    /** disagreement_mask <> 0 */
    disagreement: integer("disagreement", { mode: "boolean" }).notNull(),
    runs: integer("runs").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.benchmarkId, t.subtaskId, t.framework, t.model, t.mitigation, t.status, t.disagreement],
    }),
  ],
);

// ---------------------------------------------------------------- case studies

/** A run someone flagged as worth showing: a note and tags, browsed in the gallery. */
export const caseStudies = sqliteTable("case_studies", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  note: text("note").notNull().default(""),
  /** string[], lower-case, sorted. */
  tags: text("tags", { mode: "json" })
    .notNull()
    .default(sql`'[]'`),
  createdAt: createdAt(),
  updatedAt: text("updated_at").notNull(),
});
