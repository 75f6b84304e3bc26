import { Highlighted } from "./highlighted";
import { StepField } from "./step-field";

/** A step's output text (an observation, a shell command's output), or "(empty)". */
export function StepOutput({ label, text, query }: { label: string; text: string; query: string }) {
  return (
    <StepField label={label}>
      {text === "" ? (
        <span className="muted">(empty)</span>
      ) : (
        <pre>
          <Highlighted text={text} query={query} />
        </pre>
      )}
    </StepField>
  );
}
