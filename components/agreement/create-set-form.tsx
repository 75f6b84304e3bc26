"use client";
import { useActionState } from "react";
import type { ActionResult } from "@/lib/errors/action-result";

type Result = ActionResult;

export interface CreateSetFormProps {
  action: (previous: Result | null, form: FormData) => Promise<Result>;
  annotators: { id: number; label: string }[];
  benchmarks: { id: string; name: string }[];
  judges: { id: number; label: string }[];
}

/** The "new agreement set" form: stratified, seeded sample; k annotators per item. */
export function CreateSetForm({ action, annotators, benchmarks, judges }: CreateSetFormProps) {
  const [result, submit, pending] = useActionState(action, null);
  return (
    <form action={submit} className="create-set" data-testid="create-set-form">
      <div className="form-grid">
        <label>
          <span>Name</span>
          <input name="name" required maxLength={120} data-testid="set-name" />
        </label>
        <label>
          <span>Seed</span>
          <input name="seed" type="number" min={0} defaultValue={42} required />
        </label>
        <label>
          <span>Size</span>
          <input name="size" type="number" min={1} max={10000} defaultValue={200} data-testid="set-size" />
        </label>
        <label>
          <span>Annotators per item (k)</span>
          <input name="annotatorsPerItem" type="number" min={1} max={20} defaultValue={3} />
        </label>
        <label>
          <span>Benchmark</span>
          <select name="benchmarkId" defaultValue="">
            <option value="">all</option>
            {benchmarks.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset>
        <legend>Strata</legend>
        {(["subtask", "framework", "model"] as const).map((field) => (
          <label key={field} className="inline">
            <input type="checkbox" name={`stratum-${field}`} defaultChecked /> {field}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Annotators</legend>
        {annotators.length === 0 ? <p className="muted">No annotator accounts yet: create them under Users.</p> : null}
        {annotators.map((a) => (
          <label key={a.id} className="inline">
            <input type="checkbox" name="annotatorIds" value={a.id} defaultChecked /> {a.label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Judges compared (only runs every chosen judge scored are drawn)</legend>
        {judges.map((j) => (
          <label key={j.id} className="inline">
            <input type="checkbox" name="judgeIds" value={j.id} /> {j.label}
          </label>
        ))}
      </fieldset>
      <label className="inline">
        <input type="checkbox" name="revealAfterSubmit" defaultChecked /> Reveal the judges and the other annotators
        after an item is submitted
      </label>
      <label className="inline">
        <input type="checkbox" name="includeSynthetic" /> Include synthetic (seed:scale) runs
      </label>
      <p>
        <button type="submit" disabled={pending} data-testid="create-set-submit">
          {pending ? "Drawing…" : "Create agreement set"}
        </button>
      </p>
      {result ? (
        <p
          className={`notice${result.ok ? "" : " notice-error"}`}
          role={result.ok ? "status" : "alert"}
          data-testid="create-set-result"
        >
          {result.ok ? result.message : result.error}
        </p>
      ) : null}
    </form>
  );
}
