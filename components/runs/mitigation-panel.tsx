import { MITIGATION_LABELS, type MitigationPlan } from "@/lib/codekit/mitigation";
import { METRICS } from "@/lib/metrics/catalog";
import { formatCost, formatTokens } from "@/lib/util/format";

const METRIC_LABEL = new Map(METRICS.map((m) => [m.id, m.label]));

/** What a run was given under its mitigation arm: the rules, the tools, the selector's choice and the guard. */
export function MitigationPanel({ plan }: { plan: MitigationPlan }) {
  const { selector } = plan;
  return (
    <dl className="facts" data-testid="mitigation">
      <div>
        <dt>Arm</dt>
        <dd data-testid="mitigation-arm">{MITIGATION_LABELS[plan.arm]}</dd>
      </div>
      <div>
        <dt>Rules given</dt>
        <dd data-testid="mitigation-rules">
          {plan.rules.length === 0
            ? "none"
            : plan.rules.map((r) => `${METRIC_LABEL.get(r.metric) ?? r.metric} (v${r.version})`).join(", ")}
        </dd>
      </div>
      <div>
        <dt>Tools offered</dt>
        <dd data-testid="mitigation-tools">
          {plan.tools.length === 0
            ? "none"
            : plan.tools.map((tool, i) => (
                <span key={tool}>
                  {i > 0 ? ", " : null}
                  <code>{tool}</code>
                </span>
              ))}
        </dd>
      </div>
      {selector ? (
        <div>
          <dt>Selector</dt>
          <dd data-testid="mitigation-selector">
            {selector.source === "model"
              ? `${[selector.provider, selector.model].filter(Boolean).join(" / ") || "a model"} chose`
              : "the fallback by subtask chose"}{" "}
            (prompt {selector.promptVersion}) ·{" "}
            {selector.cached
              ? "answered from the cache"
              : `${formatTokens(selector.inputTokens + selector.outputTokens)} tokens, ${formatCost(selector.costUsd)}`}
            {selector.reason ? <> · “{selector.reason}”</> : null}
            {selector.error ? <> · the model&apos;s answer was not used: {selector.error}</> : null}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Guard</dt>
        <dd data-testid="mitigation-guard">
          {plan.guard
            ? "the sandbox enforced the boundary contract"
            : "off: only the agent's choices kept it in bounds"}
        </dd>
      </div>
    </dl>
  );
}
