/** Designed empty and error states: a page never renders blank. */
export function EmptyState({
  title,
  children,
  testId,
}: {
  title: string;
  children?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="state state-empty" data-testid={testId ?? "empty-state"} role="status">
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

export function ErrorState({ title, errors }: { title: string; errors: string[] }) {
  return (
    <div className="state state-error" data-testid="error-state" role="alert">
      <strong>{title}</strong>
      <ul>
        {errors.map((e) => (
          <li key={e}>
            <code>{e}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
