"use client";
import { useActionState } from "react";
export type ActionResult = { ok: true; message: string } | { ok: false; error: string };
type EnqueueAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

export function JobForms({
  benchmarks,
  subtasks,
  enqueueAction,
}: {
  benchmarks: string[];
  subtasks: { id: string; label: string }[];
  enqueueAction: EnqueueAction;
}) {
  const [runState, runAction, runPending] = useActionState<ActionResult | null, FormData>(enqueueAction, null);
  const [evalState, evalAction, evalPending] = useActionState<ActionResult | null, FormData>(enqueueAction, null);
  return (
    <div className="job-forms">
      <form action={runAction} className="panel" data-testid="run-agents-form">
        <h2>Run agents</h2>
        <input type="hidden" name="kind" value="run-agents" />
        <label>
          Benchmark
          <select name="benchmark" defaultValue={benchmarks[0]}>
            {benchmarks.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
        <label>
          Agent
          <select name="agent">
            <option value="file-tools">file-tools</option>
            <option value="terminal-editor">terminal-editor</option>
          </select>
        </label>
        <label>
          Provider
          <select name="provider">
            <option>gemini</option>
            <option>openai</option>
            <option>anthropic</option>
          </select>
        </label>
        <label>
          Subtask
          <select name="subtask" defaultValue="">
            <option value="">all</option>
            {subtasks.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per subtask
          <input name="perSubtask" type="number" min={1} defaultValue={2} />
        </label>
        <label className="check">
          <input name="mock" type="checkbox" defaultChecked /> scripted model (offline)
        </label>
        <button type="submit" disabled={runPending} data-testid="run-agents-submit">
          Queue run
        </button>
        <ActionMessage state={runState} />
      </form>
      <form action={evalAction} className="panel" data-testid="evaluate-form">
        <h2>Evaluate</h2>
        <input type="hidden" name="kind" value="evaluate" />
        <label>
          Judge
          <select name="judge">
            <option value="rule">rule</option>
            <option value="gemini">gemini</option>
          </select>
        </label>
        <label>
          Runs (pattern)
          <input name="runs" placeholder="all" />
        </label>
        <label className="check">
          <input name="mock" type="checkbox" /> scripted model (offline)
        </label>
        <label className="check">
          <input name="force" type="checkbox" /> re-judge judged runs
        </label>
        <button type="submit" disabled={evalPending} data-testid="evaluate-submit">
          Queue evaluation
        </button>
        <ActionMessage state={evalState} />
      </form>
    </div>
  );
}

function ActionMessage({ state }: { state: ActionResult | null }) {
  if (!state) return null;
  return state.ok ? (
    <p className="ok" data-testid="action-ok">
      {state.message}
    </p>
  ) : (
    <p className="error" data-testid="action-error">
      {state.error}
    </p>
  );
}
