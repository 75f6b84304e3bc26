/**
 * Gemini CLI (`@google/gemini-cli`), headless: `gemini -m MODEL -p TASK --yolo -o stream-json`,
 * talking Gemini REST to GOOGLE_GEMINI_BASE_URL with API-key auth chosen in ~/.gemini/settings.json.
 * An explicit model skips the CLI's model router (an extra classifier call per turn). Guidelines go
 * to ~/.gemini/GEMINI.md (its global context file). Sessions land in ~/.gemini/tmp/<project>/chats/.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { normalizeGeminiSession, normalizeGeminiStream, withSessionExitCodes } from "@/lib/transcripts/gemini-cli";
import { filesUnder, jsonLinesOnly, readAgentFile } from "./files";
import type { ExternalAgentAdapter } from "./types";

export const geminiCliAdapter: ExternalAgentAdapter = {
  framework: "gemini-cli",
  protocol: "gemini",
  npmPackage: "@google/gemini-cli",
  stateInHome: [".gemini"],
  binName: "gemini",
  async prepare(input) {
    const geminiDir = path.join(input.homeDir, ".gemini");
    await fs.mkdir(geminiDir, { recursive: true });
    const settings = { security: { auth: { selectedType: "gemini-api-key" } } };
    await fs.writeFile(path.join(geminiDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    if (input.guidelines) await fs.writeFile(path.join(geminiDir, "GEMINI.md"), `${input.guidelines}\n`);
    return {
      argv: [input.binary, "-m", input.model, "-p", input.task, "--yolo", "-o", "stream-json"],
      env: {
        GOOGLE_GEMINI_BASE_URL: input.baseUrl,
        GEMINI_API_KEY: input.apiKey,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
    };
  },
  sessionFiles: (homeDir) => filesUnder(homeDir, ".gemini/tmp", /^session-.*\.jsonl?$/),
  async normalize({ stdout, homeDir }) {
    const stream = normalizeGeminiStream(jsonLinesOnly(stdout), "native/stdout.jsonl");
    // Exit codes of shell commands are only in the session file (what the model was shown).
    const [sessionFile] = await geminiCliAdapter.sessionFiles(homeDir);
    if (!sessionFile) return stream;
    const shownAs = `native/home/${sessionFile}`;
    const text = await readAgentFile(homeDir, sessionFile, shownAs);
    if (text === null) return stream;
    return withSessionExitCodes(stream, normalizeGeminiSession(text, shownAs));
  },
};
