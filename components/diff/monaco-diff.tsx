"use client";
import { DiffEditor, type DiffOnMount, type Monaco, type MonacoDiffEditor } from "@monaco-editor/react";
import { useEffect, useRef, useState } from "react";
import { hunkLocations } from "@/lib/runs/diff-hunks";
import { configureMonaco } from "../code/monaco-setup";

configureMonaco();

/** Bring a hunk (0-based; null for the first change) into view; `nonce` repeats a request. */
export interface RevealRequest {
  hunk: number | null;
  nonce: number;
}

export interface MonacoDiffProps {
  original: string;
  modified: string;
  language: string;
  /** Side by side for updates; inline for files diffed against empty (created, deleted). */
  sideBySide: boolean;
  label: string;
  reveal?: RevealRequest | null;
  maxHeight?: number;
}

const LINE_HEIGHT = 19;
const MIN_HEIGHT = 60;

function estimate(original: string, modified: string, max: number): number {
  const lines = Math.max(original.split("\n").length, modified.split("\n").length);
  return Math.min(max, Math.max(MIN_HEIGHT, lines * LINE_HEIGHT + 4));
}

/** A read-only Monaco diff editor, as tall as its (collapsed) content up to `maxHeight`. */
export default function MonacoDiff({
  original,
  modified,
  language,
  sideBySide,
  label,
  reveal = null,
  maxHeight = 560,
}: MonacoDiffProps) {
  const editorRef = useRef<MonacoDiffEditor | null>(null);
  const monacoRef = useRef<Monaco | null>(null);
  const [height, setHeight] = useState(() => estimate(original, modified, maxHeight));
  const [diffVersion, setDiffVersion] = useState(0);

  const onMount: DiffOnMount = (editor, monaco) => {
    editorRef.current = editor;
    monacoRef.current = monaco;
    const sides = [editor.getOriginalEditor(), editor.getModifiedEditor()];
    const fit = () =>
      setHeight(Math.min(maxHeight, Math.max(MIN_HEIGHT, ...sides.map((s) => s.getContentHeight())) + 2));
    for (const side of sides) side.onDidContentSizeChange(fit);
    editor.onDidUpdateDiff(() => {
      fit();
      setDiffVersion((v) => v + 1);
    });
  };

  useEffect(() => {
    const editor = editorRef.current;
    const monaco = monacoRef.current;
    if (!reveal || !editor || !monaco || diffVersion === 0) return;
    const hunks = hunkLocations(original, modified);
    const hunk = hunks[Math.min(reveal.hunk ?? 0, hunks.length - 1)];
    if (!hunk) return;
    const side = hunk.adds ? editor.getModifiedEditor() : editor.getOriginalEditor();
    const line = hunk.adds ? hunk.afterLine : hunk.beforeLine;
    side.revealLineInCenter(line);
    const marks = side.createDecorationsCollection([
      {
        range: new monaco.Range(line, 1, line, 1),
        options: {
          isWholeLine: true,
          className: "diff-hunk-target",
          linesDecorationsClassName: "code-highlight-gutter",
        },
      },
    ]);
    return () => marks.clear();
  }, [reveal, diffVersion, original, modified]);

  return (
    <div className="monaco-diff" data-testid="monaco-diff" style={{ height }}>
      <DiffEditor
        height={height}
        original={original}
        modified={modified}
        language={language}
        onMount={onMount}
        loading={<div className="code-loading">Loading the diff editor…</div>}
        options={{
          readOnly: true,
          originalEditable: false,
          renderSideBySide: sideBySide,
          useInlineViewWhenSpaceIsLimited: true,
          renderSideBySideInlineBreakpoint: 720,
          hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
          ignoreTrimWhitespace: false,
          renderOverviewRuler: false,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          automaticLayout: true,
          fontSize: 13,
          lineHeight: LINE_HEIGHT,
          // Keyboard users Tab through the page; the wheel scrolls the page past a short diff.
          tabFocusMode: true,
          scrollbar: { alwaysConsumeMouseWheel: false },
          originalAriaLabel: `${label}, before`,
          modifiedAriaLabel: `${label}, after`,
        }}
      />
    </div>
  );
}
