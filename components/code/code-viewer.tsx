"use client";
import Editor, { type OnMount } from "@monaco-editor/react";
import { useCallback } from "react";
import { configureMonaco } from "./monaco-setup";

configureMonaco();

export interface HighlightRange {
  startLine: number;
  endLine: number;
  label: string;
}

/** A read-only Monaco view of one file, with line ranges highlighted and the first one in view. */
export default function CodeViewer({
  content,
  path,
  highlights = [],
  height = 520,
}: {
  content: string;
  path: string;
  highlights?: HighlightRange[];
  height?: number;
}) {
  const onMount = useCallback<OnMount>(
    (editor, monaco) => {
      editor.createDecorationsCollection(
        highlights.map((h) => ({
          range: new monaco.Range(h.startLine, 1, h.endLine, 1),
          options: {
            isWholeLine: true,
            className: "code-highlight",
            hoverMessage: { value: h.label },
            linesDecorationsClassName: "code-highlight-gutter",
          },
        })),
      );
      const first = highlights[0];
      if (first) editor.revealLinesInCenter(first.startLine, first.endLine);
    },
    [highlights],
  );
  return (
    <div className="code-viewer" data-testid="code-viewer" data-path={path}>
      <Editor
        height={height}
        language={path.endsWith(".py") ? "python" : "plaintext"}
        path={path}
        value={content}
        onMount={onMount}
        options={{
          readOnly: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          automaticLayout: true,
        }}
      />
    </div>
  );
}
