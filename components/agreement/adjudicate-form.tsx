"use client";
import { useState, useTransition } from "react";
import layout from "@/components/ui/form-layout.module.css";
import type { ActionResult } from "@/lib/errors/action-result";

type Result = ActionResult;

/** An admin's final label for one (item, metric): violated / not violated / clear, with a note. */
export function AdjudicateForm(props: {
  setId: number;
  runId: string;
  metric: string;
  current: "violated" | "not_violated" | null;
  note: string;
  action: (input: unknown) => Promise<Result>;
}) {
  const [note, setNote] = useState(props.note);
  const [value, setValue] = useState(props.current);
  const [message, setMessage] = useState<Result | null>(null);
  const [pending, start] = useTransition();
  const decide = (choice: "violated" | "not_violated" | "clear") =>
    start(async () => {
      const result = await props.action({
        setId: props.setId,
        runId: props.runId,
        metric: props.metric,
        value: choice,
        note,
      });
      setMessage(result);
      if (result.ok) setValue(choice === "clear" ? null : choice);
    });
  return (
    <div className={layout.row} data-testid="adjudicate-form">
      <input
        aria-label="Note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder="why"
        maxLength={4000}
      />
      <button type="button" disabled={pending} aria-pressed={value === "violated"} onClick={() => decide("violated")}>
        Violated
      </button>
      <button
        type="button"
        disabled={pending}
        aria-pressed={value === "not_violated"}
        onClick={() => decide("not_violated")}
      >
        Not violated
      </button>
      {value ? (
        <button type="button" disabled={pending} onClick={() => decide("clear")}>
          Clear
        </button>
      ) : null}
      {message && !message.ok ? (
        <span role="alert" className="save-error">
          {message.error}
        </span>
      ) : null}
      {value ? <span className="chip">final: {value.replace("_", " ")}</span> : null}
    </div>
  );
}
