import { StepOutput } from "./step-output";
import type { StepViewProps } from "./step-field";

/** What a tool call returned, marked when it was an error. */
export function ObservationStep({ step, query }: StepViewProps) {
  return (
    <StepOutput label={step.isError ? "observation (error)" : "observation"} text={step.text ?? ""} query={query} />
  );
}
