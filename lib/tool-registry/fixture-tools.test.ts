/**
 * Every tool the foreign logs we hold call is one the registry describes: the readers' committed
 * fixtures (lib/foreign/formats/fixtures) and the real public logs of the test-data folder
 * ($STUDIO_TEST_DATA/fixtures/trajectories), each read by the reader that detects it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FOREIGN_FORMATS } from "@/lib/foreign/formats";
import { inspectEval } from "@/lib/foreign/formats/inspect-eval";
import { inspectJson } from "@/lib/foreign/formats/inspect-json";
import type { ForeignFormat } from "@/lib/foreign/types";
import { describeWithTestData } from "@/lib/test-support/test-data";
import { toolEffect } from "./index";

const FORMATS: ForeignFormat[] = [...FOREIGN_FORMATS];
for (const format of [inspectJson, inspectEval]) if (!FORMATS.some((f) => f.id === format.id)) FORMATS.push(format);

/** Files of a fixture folder that are not logs: contracts, the scripts that made a fixture, notes. */
const notALog = (file: string) => file.includes(`${path.sep}contracts${path.sep}`) || /\.(py|md)$/.test(file);

function logFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !notALog(file))
    .sort();
}

/** `framework:tool` of every tool call in the file's runs, each once. */
function toolNames(file: string): string[] {
  const data = { name: path.basename(file), data: fs.readFileSync(file) };
  const format = FORMATS.find((f) => f.detect(data));
  if (!format) throw new Error(`no reader detects ${file}`);
  const names = format
    .read(data, { siblings: [] })
    .flatMap((run) => run.steps.flatMap((s) => (s.kind === "tool_call" ? [`${run.agent.framework}:${s.tool}`] : [])));
  return [...new Set(names)];
}

function expectAllDescribed(folder: string): void {
  const calls = logFiles(folder).flatMap(toolNames);
  expect(calls.length).toBeGreaterThan(0);
  const unknown = calls.filter((call) => {
    const [framework, ...tool] = call.split(":");
    return toolEffect(framework, tool.join(":")) === null;
  });
  expect(unknown).toEqual([]);
}

describe("the tools of the readers' committed fixtures", () => {
  it("are all described by the registry", () => {
    expectAllDescribed(path.join(__dirname, "..", "foreign", "formats", "fixtures"));
  });
});

describeWithTestData("the tools of the real public logs", "fixtures/trajectories", (folder) => {
  it("are all described by the registry", () => {
    expectAllDescribed(folder);
  });
});
