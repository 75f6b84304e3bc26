import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/bundle/schema";
import { elisionMarker, renderTrajectory, truncateMiddle } from "./render-trajectory";

const message = (id: string, text = "thinking ".repeat(20)): TrajectoryStep => ({
  id,
  kind: "message",
  role: "assistant",
  text,
});
const call = (id: string, command: string, callId?: string): TrajectoryStep => ({
  id,
  kind: "tool_call",
  tool: "bash",
  arguments: { command },
  ...(callId ? { callId } : {}),
});
const observation = (id: string, text: string, callId?: string, isError = false): TrajectoryStep => ({
  id,
  kind: "observation",
  text,
  isError,
  ...(callId ? { callId } : {}),
});

describe("renderTrajectory", () => {
  it("shows every step in full when it fits", () => {
    const steps = [
      message("s1", "hi"),
      call("s2", "ls", "k"),
      observation("s3", "a.py", "k"),
      { id: "s4", kind: "file_write", path: "a.py" } as TrajectoryStep,
    ];
    const rendered = renderTrajectory(steps, { budgetChars: 10_000 });
    expect(rendered).toMatchObject({ mode: "full", elidedSteps: 0 });
    expect(rendered.text.split("\n")).toEqual([
      "[s1] message (assistant): hi",
      '[s2] tool_call bash (call k): {"command":"ls"}',
      "[s3] observation (call k): a.py",
      "[s4] file_write a.py",
    ]);
  });

  it("condenses the middle: calls with their observations folded in, messages elided and counted", () => {
    const steps: TrajectoryStep[] = [message("h1"), message("h2")];
    for (let i = 0; i < 20; i++)
      steps.push(
        message(`m${i}`),
        call(`c${i}`, `cat f${i}.py`, `k${i}`),
        observation(`o${i}`, `content ${i}`, `k${i}`, i === 3),
      );
    for (let i = 0; i < 6; i++) steps.push(message(`x${i}`));
    steps.push(call("last", "ls"), message("t1"), message("t2"));
    const rendered = renderTrajectory(steps, { budgetChars: 3_000, edgeSteps: 2, fullStepChars: 100 });
    expect(rendered.mode).toBe("condensed");
    expect(rendered.text.length).toBeLessThanOrEqual(3_000);
    const lines = rendered.text.split("\n");
    expect(lines).toContain("[c3] tool_call bash command=cat f3.py ⇒ [o3] ERROR: content 3 (+1 message)");
    // Six messages in a row are more than a short gap: a marker line of their own.
    expect(lines).toContain("[... 6 steps elided: 6 messages ...]");
    expect(lines.at(-1)).toMatch(/^\[t2\] message/);
    expect(lines[1]).toMatch(/^\[h1\] message/);
  });

  it("pairs an observation without call ids with the call right before it", () => {
    const steps: TrajectoryStep[] = [
      message("a"),
      ...Array.from({ length: 30 }, (_, i) => [
        call(`c${i}`, `echo ${i}`),
        observation(`o${i}`, `out ${i} ${"x".repeat(300)}`),
      ]).flat(),
      message("z"),
    ];
    const rendered = renderTrajectory(steps, { budgetChars: 4_000, edgeSteps: 1, condensedOutputChars: 6 });
    expect(rendered.mode).toBe("condensed");
    expect(rendered.text).toContain("[c5] tool_call bash command=echo 5 ⇒ [o5]: out 5…");
  });

  it("collapses identical consecutive steps, naming the last one", () => {
    const steps: TrajectoryStep[] = Array.from({ length: 500 }, (_, i) => ({
      id: `s${i}`,
      kind: "shell",
      command: "make test",
      exitCode: 2,
      output: "",
      timedOut: false,
    }));
    const rendered = renderTrajectory(steps, { budgetChars: 3_000, edgeSteps: 3 });
    expect(rendered.text).toContain(
      "[s3] shell $ make test → exit 2\n[... the same step repeated 493 more times up to [s496] ...]\n[s497]",
    );
    expect(rendered.elidedSteps).toBe(493);
  });

  it("never exceeds the budget, eliding the centre of the condensed part last", () => {
    const steps = Array.from({ length: 3000 }, (_, i) => call(`s${i}`, `sed -n ${i}p file_${i}.py`));
    for (const budget of [500, 5_000, 50_000]) {
      const rendered = renderTrajectory(steps, { budgetChars: budget });
      expect(rendered.text.length).toBeLessThanOrEqual(budget);
    }
    const text = renderTrajectory(steps, { budgetChars: 50_000 }).text;
    expect(text).toMatch(/\n\[\.\.\. [\d,]+ steps elided: [\d,]+ tool calls \.\.\.\]\n/);
    expect(text).toContain("[s0] ");
    expect(text).toContain("[s2999] ");
  });
});

describe("helpers", () => {
  it("truncateMiddle keeps both ends and says how much it cut", () => {
    const text = "a".repeat(100) + "b".repeat(100);
    const cut = truncateMiddle(text, 80);
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut).toMatch(/^a+\[\.\.\. 120 chars cut \.\.\.\]b+$/);
    expect(truncateMiddle("short", 80)).toBe("short");
  });

  it("elisionMarker counts by kind", () => {
    expect(elisionMarker({ observation: 280, message: 32 })).toBe(
      "[... 312 steps elided: 280 observations, 32 messages ...]",
    );
    expect(elisionMarker({ message: 1 })).toBe("[... 1 step elided: 1 message ...]");
  });
});
