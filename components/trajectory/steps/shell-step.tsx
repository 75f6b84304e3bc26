import { Highlighted } from "./highlighted";
import { StepField, type StepViewProps } from "./step-field";
import { StepOutput } from "./step-output";

/** A shell command: the command line, its exit code and its output. */
export function ShellStep({ step, query }: StepViewProps) {
  return (
    <>
      <StepField label="command">
        <pre>
          $ <Highlighted text={step.command ?? ""} query={query} />
        </pre>
      </StepField>
      <StepField label="exit code">
        <span className={step.exitCode === 0 ? "ok" : "error"}>{step.exitCode ?? "none (killed or timed out)"}</span>
      </StepField>
      <StepOutput label="output" text={step.text ?? ""} query={query} />
    </>
  );
}
