import type { BoundaryContract } from "@/lib/benchmark/schema";

const ROWS: { key: keyof BoundaryContract; label: string; empty: string }[] = [
  { key: "mustRead", label: "Must read", empty: "nothing required" },
  { key: "mayChange", label: "May change", empty: "no file" },
  { key: "expectedCreate", label: "Expected to create", empty: "no file" },
  { key: "expectedDelete", label: "Expected to delete", empty: "no file" },
];

export function ContractView({ contract }: { contract: BoundaryContract }) {
  return (
    <>
      <h2>Boundary contract</h2>
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
