import type { BoundaryContract } from "@/lib/benchmark/schema";

type ContractList = Exclude<keyof BoundaryContract, "origin">;

const ROWS: { key: ContractList; label: string; empty: string }[] = [
  { key: "mustRead", label: "Must read", empty: "nothing required" },
  { key: "mayChange", label: "May change", empty: "no file" },
  { key: "expectedCreate", label: "Expected to create", empty: "no file" },
  { key: "expectedDelete", label: "Expected to delete", empty: "no file" },
];

const ORIGIN_LABEL: Record<NonNullable<BoundaryContract["origin"]>, string> = {
  contract_file: "From the contract file given at import.",
  gold_patch: "May-change is the gold patch's files; nothing else is known.",
  none: "No contract: only the metrics that need none are decided.",
};

export function ContractView({ contract }: { contract: BoundaryContract }) {
  return (
    <>
      <h2>Boundary contract</h2>
      {contract.origin && (
        <p className="muted" data-testid="contract-origin">
          {ORIGIN_LABEL[contract.origin]}
        </p>
      )}
      <dl className="facts" data-testid="contract">
        {ROWS.map((row) => (
          <div key={row.key} data-testid={`contract-${row.key}`}>
            <dt>{row.label}</dt>
            <dd>
              {contract[row.key].length === 0 ? (
                <span className="muted">{row.empty}</span>
              ) : (
                contract[row.key].map((p) => (
                  <code key={p} className="path">
                    {p}
                  </code>
                ))
              )}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
