import type { StepKind } from "@/lib/bundle/schema";
import { MARK_LABELS } from "@/lib/runs/marks";
import { FileStep } from "./file-step";
import { MessageStep } from "./message-step";
import { ObservationStep } from "./observation-step";
import { ShellStep } from "./shell-step";
import { StepField, type StepViewProps } from "./step-field";
import styles from "./steps.module.css";
import { ToolCallStep } from "./tool-call-step";

/**
 * The view of the step's kind (lib/bundle/schema.ts TrajectoryStep has these seven). A kind
 * stored before the format knew it still shows its path, as file steps do.
 */
function KindView(props: StepViewProps) {
  switch (props.step.kind as StepKind) {
    case "message":
      return <MessageStep {...props} />;
    case "tool_call":
      return <ToolCallStep {...props} />;
    case "observation":
      return <ObservationStep {...props} />;
    case "shell":
      return <ShellStep {...props} />;
    case "file_read":
    case "file_write":
    case "file_delete":
    default:
      return <FileStep {...props} />;
  }
}

/** An opened step: its kind's view, then what every step may carry (a cut notice, contract marks). */
export function StepBody({ step, query }: StepViewProps) {
  return (
    <>
      <KindView step={step} query={query} />
      {step.textLength !== null ? (
        <p className={`muted ${styles.cut}`}>
          Showing the first {(step.text ?? "").length.toLocaleString("en")} of {step.textLength.toLocaleString("en")}{" "}
          characters; the run bundle keeps the whole text.
        </p>
      ) : null}
      {step.marks.length > 0 ? (
        <StepField label="boundary contract">
          <ul className={styles.marks}>
            {step.marks.map((m) => (
              <li key={`${m.kind}:${m.path}`}>
                <span className={`mark mark-${m.severity}`}>{MARK_LABELS[m.kind]}</span> <code>{m.path}</code>
              </li>
            ))}
          </ul>
        </StepField>
      ) : null}
    </>
  );
}
