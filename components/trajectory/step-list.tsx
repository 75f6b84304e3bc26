import type { RunDetail } from "@/lib/runs/types";

function summary(step: RunDetail["steps"][number]): string {
  switch (step.kind) {
    case "message":
      return `${step.role}: ${(step.text ?? "").slice(0, 140)}`;
    case "tool_call":
      return `${step.toolName}(${(step.toolArguments ?? "").slice(0, 120)})`;
    case "observation":
      return `→ ${(step.text ?? "").slice(0, 140)}`;
    case "shell":
      return `$ ${step.command ?? ""}  [exit ${step.exitCode ?? "?"}]`;
    default:
      return `${step.kind.replace("file_", "")} ${step.path ?? ""}`;
  }
}

/** The trajectory, one collapsible entry per step, each with an anchor that verdicts link to. */
export function StepList({ steps }: { steps: RunDetail["steps"] }) {
  return (
    <>
      <h2>Trajectory ({steps.length} steps)</h2>
      <ol className="steps" data-testid="trajectory">
        {steps.map((step) => (
          <li
            key={step.position}
            id={`step-${step.stepId}`}
            className={`step step-${step.kind}${step.isError ? " step-error" : ""}`}
          >
            <details>
              <summary>
                <a href={`#step-${step.stepId}`} className="step-id">
                  {step.stepId}
                </a>{" "}
                <span className="step-kind">{step.kind}</span> {summary(step)}
              </summary>
              <pre>
                {step.kind === "tool_call"
                  ? step.toolArguments
                  : step.kind === "shell"
                    ? `$ ${step.command}\n${step.text ?? ""}`
                    : (step.text ?? step.path ?? "")}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </>
  );
}
