"use client";
import { useActionState, useState } from "react";
import { AGENT_FILE_CHOICE } from "@/lib/jobs/agent-choice";
import type { ActionResult } from "@/lib/errors/action-result";
import { FilterSelect } from "@/components/ui/filter-select";
import layout from "@/components/ui/form-layout.module.css";
type EnqueueAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

export function JobForms({
  benchmarks,
  subtasks,
  agents,
  judges,
  mitigations,
  enqueueAction,
}: {
  benchmarks: string[];
  subtasks: { id: string; label: string }[];
  /** The built-in agents and the agent CLIs, from the registries in lib/agents. */
  agents: { builtin: string[]; clis: string[] };
  /** `rule` and the LLM judge definitions (lib/judge/llm/judge-definitions.ts). */
  judges: { id: string; label: string }[];
  /** The mitigation arms (lib/codekit/arms.ts), handed over from the server page. */
  mitigations: { id: string; label: string }[];
  enqueueAction: EnqueueAction;
}) {
  const [agent, setAgent] = useState(agents.builtin[0] ?? AGENT_FILE_CHOICE);
  const [runState, runAction, runPending] = useActionState<ActionResult | null, FormData>(enqueueAction, null);
  const [evalState, evalAction, evalPending] = useActionState<ActionResult | null, FormData>(enqueueAction, null);
  const [ablationState, ablationAction, ablationPending] = useActionState<ActionResult | null, FormData>(
    enqueueAction,
    null,
  );
  return (
    <div className={layout.forms}>
      <form action={runAction} className={`panel ${layout.form}`} data-testid="run-agents-form">
        <h2>Run agents</h2>
        <input type="hidden" name="kind" value="run-agents" />
        <BenchmarkSelect benchmarks={benchmarks} />
        <label>
          Agent
          <select name="agent" value={agent} onChange={(e) => setAgent(e.target.value)} data-testid="agent-select">
            <AgentOptions agents={agents} />
            <option value={AGENT_FILE_CHOICE}>agent file…</option>
          </select>
        </label>
        {agent === AGENT_FILE_CHOICE ? (
          <label>
            Agent file
            <input name="agentFile" placeholder="examples/python-agent/agent.json" data-testid="agent-file" />
          </label>
        ) : null}
        <label>
          Provider
          <select name="provider" defaultValue="">
            <option value="">the agent&apos;s own</option>
            <option>gemini</option>
            <option>openai</option>
            <option>anthropic</option>
          </select>
        </label>
        <label>
          Mitigation
          <select name="mitigation" defaultValue="" data-testid="mitigation-select">
            <option value="">the agent&apos;s own (none)</option>
            {mitigations.map((arm) => (
              <option key={arm.id} value={arm.id}>
                {arm.label}
              </option>
            ))}
          </select>
        </label>
        <InstanceFields subtasks={subtasks} />
        <button type="submit" disabled={runPending} data-testid="run-agents-submit">
          Queue run
        </button>
        <ActionMessage state={runState} />
      </form>
      <form action={evalAction} className={`panel ${layout.form}`} data-testid="evaluate-form">
        <h2>Evaluate</h2>
        <input type="hidden" name="kind" value="evaluate" />
        <label>
          Judge
          <select name="judge" data-testid="judge-select">
            {judges.map((j) => (
              <option key={j.id} value={j.id}>
                {j.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Runs (pattern)
          <input name="runs" placeholder="all" />
        </label>
        <label className={layout.check}>
          <input name="mock" type="checkbox" /> scripted model (offline)
        </label>
        <label className={layout.check}>
          <input name="force" type="checkbox" /> re-judge judged runs
        </label>
        <button type="submit" disabled={evalPending} data-testid="evaluate-submit">
          Queue evaluation
        </button>
        <ActionMessage state={evalState} />
      </form>
      <form action={ablationAction} className={`panel ${layout.form}`} data-testid="ablation-form">
        <h2>Ablation</h2>
        <input type="hidden" name="kind" value="ablation" />
        <BenchmarkSelect benchmarks={benchmarks} />
        <label>
          Agent
          <select name="agent" defaultValue={agents.builtin[0]} data-testid="ablation-agent">
            <AgentOptions agents={agents} />
          </select>
        </label>
        <fieldset className={layout.group}>
          <legend>Arms (none is the baseline)</legend>
          {mitigations.map((arm) => (
            <label key={arm.id} className={layout.check}>
              <input name="arms" type="checkbox" value={arm.id} defaultChecked={arm.id !== "guard"} /> {arm.label}
            </label>
          ))}
        </fieldset>
        <InstanceFields subtasks={subtasks} />
        <button type="submit" disabled={ablationPending} data-testid="ablation-submit">
          Queue ablation
        </button>
        <ActionMessage state={ablationState} />
      </form>
    </div>
  );
}

function BenchmarkSelect({ benchmarks }: { benchmarks: string[] }) {
  return (
    <label>
      Benchmark
      <select name="benchmark" defaultValue={benchmarks[0]}>
        {benchmarks.map((b) => (
          <option key={b}>{b}</option>
        ))}
      </select>
    </label>
  );
}

function AgentOptions({ agents }: { agents: { builtin: string[]; clis: string[] } }) {
  return (
    <>
      <optgroup label="Built-in">
        {agents.builtin.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </optgroup>
      <optgroup label="Agent CLIs (sandboxed)">
        {agents.clis.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </optgroup>
    </>
  );
}

/** Which instances run (a subtask, the first n of each) and whether the model is the scripted one. */
function InstanceFields({ subtasks }: { subtasks: { id: string; label: string }[] }) {
  return (
    <>
      <FilterSelect label="Subtask" name="subtask" options={subtasks.map((s) => ({ value: s.id, label: s.label }))} />
      <label>
        Per subtask
        <input name="perSubtask" type="number" min={1} defaultValue={2} />
      </label>
      <label className={layout.check}>
        <input name="mock" type="checkbox" defaultChecked /> scripted model (offline)
      </label>
    </>
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
