"use client";
import Link from "next/link";

/** The run page failed on the server or in the browser: say so, offer a retry, never a blank page. */
export default function RunError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="empty-state empty-state-error" role="alert" data-testid="run-error-page">
      <h1>This run could not be shown</h1>
      <p>
        Something went wrong while loading it{error.digest ? ` (reference ${error.digest}, see the server log)` : ""}.
      </p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        or go back to the <Link href="/runs">runs list</Link>.
      </p>
    </section>
  );
}
