import Link from "next/link";

export default function RunNotFound() {
  return (
    <section className="empty-state" data-testid="run-not-found">
      <h1>Run not found</h1>
      <p>
        No run has this id. It may have been deleted, or the link is cut short. Find it in the{" "}
        <Link href="/runs">runs list</Link>.
      </p>
    </section>
  );
}
