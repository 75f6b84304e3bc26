/**
 * The generic command adapter, for agent frameworks a user has installed (OpenHands, smolagents,
 * Agno, a harness of their own): the runner starts `command` with `bash -lc` in the workspace and
 * the environment below, and reads back what it wrote. The contract is documented in
 * docs/external-agents.md:
 *
 * - in:  STUDIO_TASK, STUDIO_TASK_FILE, STUDIO_WORKSPACE, STUDIO_MODEL, STUDIO_PROVIDER,
 *        STUDIO_BASE_URL, STUDIO_API_KEY, STUDIO_MAX_STEPS, STUDIO_GUIDELINES_FILE (when set),
 *        STUDIO_AGENT_PROGRAM (the agent file's "binary", when set), STUDIO_OUTPUT_DIR, and the
 *        provider's usual variables (OPENAI_BASE_URL, ...).
 * - out: $STUDIO_OUTPUT_DIR/trajectory.jsonl (one trajectory step per line, the run-bundle step
 *        schema), optionally $STUDIO_OUTPUT_DIR/result.json ({finalAnswer, inputTokens,
 *        outputTokens, modelCalls, costUsd, error}); everything else there is kept under native/.
 *        Exit status 0 means the agent finished.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { TrajectoryStepSchema } from "@/lib/bundle/schema";
import { AppError } from "@/lib/errors/app-error";
import { parseJsonLines } from "./transcript";
import { readAgentFile } from "./files";
import { joinInstructions } from "./instructions";
import type { ExternalAgentAdapter, ModelProtocol } from "./types";
import { fieldIssue } from "@/lib/errors/zod-issues";

export const COMMAND_RESULT_FILE = "result.json";
export const COMMAND_TRAJECTORY_FILE = "trajectory.jsonl";

const CommandResultSchema = z
  .object({
    finalAnswer: z.string().nullable().optional(),
    inputTokens: z.number().int().min(0).optional(),
    outputTokens: z.number().int().min(0).optional(),
    modelCalls: z.number().int().min(0).optional(),
    costUsd: z.number().min(0).nullable().optional(),
    error: z.string().nullable().optional(),
  })
  .strict();

/** The provider's own variables, so SDKs that read them find the gateway without extra code. */
function providerEnv(protocol: ModelProtocol, baseUrl: string, apiKey: string): Record<string, string> {
  switch (protocol) {
    case "openai":
      return { OPENAI_BASE_URL: `${baseUrl}/v1`, OPENAI_API_BASE: `${baseUrl}/v1`, OPENAI_API_KEY: apiKey };
    case "anthropic":
      return { ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: apiKey };
    case "gemini":
      return { GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY: apiKey, GOOGLE_API_KEY: apiKey };
  }
}

export function commandAdapter(protocol: ModelProtocol): ExternalAgentAdapter {
  return {
    framework: "command",
    protocol,
    npmPackage: null,
    stateInHome: [],
    binName: null,
    async prepare(input) {
      if (!input.command)
        throw new AppError("INVALID_INPUT", 'agent "command" needs options.command (the command line to run)');
      await fs.mkdir(input.outputDir, { recursive: true });
      const taskFile = path.join(input.outputDir, "..", "task.txt");
      await fs.writeFile(taskFile, input.task);
      const env: Record<string, string> = {
        STUDIO_TASK: input.task,
        STUDIO_TASK_FILE: taskFile,
        STUDIO_WORKSPACE: input.workspaceDir,
        STUDIO_MODEL: input.model,
        STUDIO_PROVIDER: protocol,
        STUDIO_BASE_URL: protocol === "openai" ? `${input.baseUrl}/v1` : input.baseUrl,
        STUDIO_API_KEY: input.apiKey,
        STUDIO_MAX_STEPS: String(input.maxSteps),
        STUDIO_OUTPUT_DIR: input.outputDir,
        ...providerEnv(protocol, input.baseUrl, input.apiKey),
      };
      // The agent file's "binary" (its folder is shown read-only in the sandbox).
      if (path.isAbsolute(input.binary)) env.STUDIO_AGENT_PROGRAM = input.binary;
      const guidelines = joinInstructions(input.guidelines, input.instructions);
      if (guidelines) {
        const guidelinesFile = path.join(input.outputDir, "..", "guidelines.md");
        await fs.writeFile(guidelinesFile, guidelines);
        env.STUDIO_GUIDELINES_FILE = guidelinesFile;
      }
      return { argv: ["bash", "-lc", input.command], env };
    },
    sessionFiles: async () => [],
    async normalize({ homeDir, outputDir }) {
      const where = `native/output/${COMMAND_TRAJECTORY_FILE}`;
      // The output folder is the agent's (under its HOME): read without following links, bounded.
      const inHome = (name: string) => path.relative(homeDir, path.join(outputDir, name));
      const text = await readAgentFile(homeDir, inHome(COMMAND_TRAJECTORY_FILE), where);
      if (text === null) throw new AppError("INVALID_INPUT", `the agent command wrote no ${where}`);
      const steps = parseJsonLines(text, where).map((line, i) => {
        const parsed = TrajectoryStepSchema.safeParse(line);
        if (!parsed.success) {
          throw new AppError("INVALID_INPUT", `${where}: line ${i + 1}, ${fieldIssue(parsed.error)}`);
        }
        return parsed.data;
      });
      const resultText = await readAgentFile(
        homeDir,
        inHome(COMMAND_RESULT_FILE),
        `native/output/${COMMAND_RESULT_FILE}`,
      );
      let result: z.infer<typeof CommandResultSchema> = {};
      if (resultText !== null) {
        let json: unknown;
        try {
          json = JSON.parse(resultText);
        } catch (error) {
          throw new AppError(
            "INVALID_INPUT",
            `native/output/${COMMAND_RESULT_FILE} is not JSON: ${(error as Error).message}`,
          );
        }
        const parsed = CommandResultSchema.safeParse(json);
        if (!parsed.success) {
          throw new AppError("INVALID_INPUT", `native/output/${COMMAND_RESULT_FILE}, ${fieldIssue(parsed.error)}`);
        }
        result = parsed.data;
      }
      return {
        steps,
        finalAnswer: result.finalAnswer ?? null,
        usage: {
          modelCalls: result.modelCalls ?? null,
          inputTokens: result.inputTokens ?? 0,
          outputTokens: result.outputTokens ?? 0,
          costUsd: result.costUsd ?? null,
        },
        models: [],
        sessionId: null,
        error: result.error ?? null,
      };
    },
  };
}
