import { Highlighted } from "./highlighted";
import { StepField, type StepViewProps } from "./step-field";

/** A file read, write or delete: the path as the agent named it. */
export function FileStep({ step, query }: StepViewProps) {
  if (step.path === null) return null;
  return (
    <StepField label="path">
      <code>
        <Highlighted text={step.path} query={query} />
      </code>
    </StepField>
  );
}
