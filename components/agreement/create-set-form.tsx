"use client";
import { useActionState } from "react";
import { FilterSelect } from "@/components/ui/filter-select";
import layout from "@/components/ui/form-layout.module.css";
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
    <div className={layout.forms}>
      <form action={submit} className={`panel ${layout.form}`} data-testid="create-set-form">
        <h2>New agreement set</h2>
        <label>
          Name
          <input name="name" required maxLength={120} data-testid="set-name" />
        </label>
        <label>
          Seed
          <input name="seed" type="number" min={0} defaultValue={42} required />
        </label>
        <label>
          Size
          <input name="size" type="number" min={1} max={10000} defaultValue={200} data-testid="set-size" />
        </label>
        <label>
          Annotators per item (k)
          <input name="annotatorsPerItem" type="number" min={1} max={20} defaultValue={3} />
        </label>
        <FilterSelect
          label="Benchmark"
          name="benchmarkId"
          options={benchmarks.map((b) => ({ value: b.id, label: b.name }))}
        />
        <fieldset className={layout.group}>
          <legend>Strata</legend>
          {(["subtask", "framework", "model"] as const).map((field) => (
            <label key={field} className={layout.check}>
              <input type="checkbox" name={`stratum-${field}`} defaultChecked /> {field}
            </label>
          ))}
        </fieldset>
        <fieldset className={layout.group}>
          <legend>Annotators</legend>
          {annotators.length === 0 ? (
            <p className="muted">No annotator accounts yet: create them under Users.</p>
          ) : null}
          {annotators.map((a) => (
            <label key={a.id} className={layout.check}>
              <input type="checkbox" name="annotatorIds" value={a.id} defaultChecked /> {a.label}
            </label>
          ))}
        </fieldset>
        <fieldset className={layout.group}>
          <legend>Judges compared (only runs every chosen judge scored are drawn)</legend>
          {judges.map((j) => (
            <label key={j.id} className={layout.check}>
              <input type="checkbox" name="judgeIds" value={j.id} /> {j.label}
            </label>
          ))}
        </fieldset>
        <label className={layout.check}>
          <input type="checkbox" name="revealAfterSubmit" defaultChecked /> Reveal the judges and the other annotators
          after an item is submitted
        </label>
        <label className={layout.check}>
          <input type="checkbox" name="includeSynthetic" /> Include synthetic (seed:scale) runs
        </label>
        <button type="submit" disabled={pending} data-testid="create-set-submit">
          {pending ? "Drawing…" : "Create agreement set"}
        </button>
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
    </div>
  );
}
