import { MITIGATION_LABELS } from "@/lib/codekit/arms";
import type { GuardRecord, MitigationPlan } from "@/lib/codekit/mitigation";
import { METRICS } from "@/lib/metrics/catalog";
import { formatCost, formatTokens } from "@/lib/util/format";

const METRIC_LABEL = new Map(METRICS.map((m) => [m.id, m.label]));

/**
 * What a run was given under its mitigation arm: the rules, the tools, the selector's choice and the
 * guard, with the guard's record (`guard`) when the run has one: what got past it, what it cannot stop.
 */
export function MitigationPanel({ plan, guard }: { plan: MitigationPlan; guard: GuardRecord | null }) {
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
      {plan.guard ? <GuardRecordFacts guard={guard} /> : null}
    </dl>
  );
}

function GuardRecordFacts({ guard }: { guard: GuardRecord | null }) {
  if (!guard)
    return (
      <div>
        <dt>Guard record</dt>
        <dd data-testid="guard-record">none: the run has no sandbox record of the guard</dd>
      </div>
    );
  return (
    <>
      <div>
        <dt>Got past it</dt>
        <dd data-testid="guard-breaches">
          {guard.breaches.length === 0 ? (
            "nothing: every change was one the contract allows"
          ) : (
            <GuardList
              open
              label={`${guard.breaches.length} change(s) the contract does not allow`}
              items={guard.breaches}
            />
          )}
        </dd>
      </div>
      <div>
        <dt>Cannot stop</dt>
        <dd data-testid="guard-gaps">
          {guard.gaps.length === 0 ? (
            "nothing listed"
          ) : (
            <GuardList label={`${guard.gaps.length} gap(s)`} items={guard.gaps} />
          )}
        </dd>
      </div>
      <div>
        <dt>Writable folders</dt>
        <dd data-testid="guard-folders">
          {guard.writableFolders.length === 0 ? (
            "none: only the files the task may change"
          ) : (
            <GuardList label={`${guard.writableFolders.length} folder(s)`} items={guard.writableFolders} />
          )}
        </dd>
      </div>
    </>
  );
}

/** A long list folded under its count; the first 200 items shown (the record keeps every one). */
function GuardList({ label, items, open = false }: { label: string; items: readonly string[]; open?: boolean }) {
  return (
    <details open={open}>
      <summary>{label}</summary>
      <ul>
        {items.slice(0, 200).map((item, i) => (
          <li key={i}>
            <code>{item}</code>
          </li>
        ))}
        {items.length > 200 ? <li>… and {items.length - 200} more</li> : null}
      </ul>
    </details>
  );
}
