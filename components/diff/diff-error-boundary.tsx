"use client";
import { Component, type ReactNode } from "react";
import styles from "./diff.module.css";

/** If the editor fails to load (a chunk error, a worker refused), the diff's texts are still there. */
export class DiffErrorBoundary extends Component<
  { original: string; modified: string; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error("diff editor failed:", error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className={`${styles.note} ${styles.noteError}`} role="alert" data-testid="diff-error">
        <p>The diff editor could not be loaded. The two versions as plain text:</p>
        <details>
          <summary>before</summary>
          <pre className="hunk">{this.props.original || "(empty)"}</pre>
        </details>
        <details>
          <summary>after</summary>
          <pre className="hunk">{this.props.modified || "(empty)"}</pre>
        </details>
      </div>
    );
  }
}
