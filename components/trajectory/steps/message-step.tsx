import { Highlighted } from "./highlighted";
import { StepField, type StepViewProps } from "./step-field";

/** A system, user or assistant message: its text. */
export function MessageStep({ step, query }: StepViewProps) {
  return (
    <StepField label={`${step.role ?? "message"} text`}>
      <pre>
        <Highlighted text={step.text ?? ""} query={query} />
      </pre>
    </StepField>
  );
}
