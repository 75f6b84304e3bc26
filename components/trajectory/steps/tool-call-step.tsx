import { Highlighted } from "./highlighted";
import { StepField, type StepViewProps } from "./step-field";

/** A tool call: the tool's name and its pretty-printed arguments. */
export function ToolCallStep({ step, query }: StepViewProps) {
  return (
    <>
      <StepField label="tool">
        <code>
          <Highlighted text={step.toolName ?? "?"} query={query} />
        </code>
      </StepField>
      <StepField label="arguments">
        <pre className="json">
          <Highlighted text={step.toolArguments ?? "(none)"} query={query} />
        </pre>
      </StepField>
    </>
  );
}
