import { z } from "zod";
import { TrustedProxiesSchema } from "@/lib/auth/client-address";
import { firstIssue } from "@/lib/errors/zod-issues";
import { DEFAULT_MAX_RATIO } from "@/lib/bundle/budget";
import { DEFAULT_MAX_JSON_BYTES, HEAP_BYTES_PER_JSON_BYTE } from "@/lib/bundle/json-budget";
import { DEFAULT_READ_LIMITS, type ReadLimits } from "@/lib/bundle/read";
import { AppError } from "@/lib/errors/app-error";
import { RateLimitsSchema } from "@/lib/remote/run-queue";
import { DEFAULT_MAX_STORED_FILE_BYTES } from "@/lib/runner/workspace";

const PositiveInt = z.coerce.number().int().positive();

/** Every environment variable the project reads, documented in the README. */
export const EnvSchema = z
  .object({
    STUDIO_DB: z.string().min(1).optional(),
    STUDIO_INGEST_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** Proxies of ours in front of the web server, whose x-forwarded-for the sign-in throttle believes. */
    STUDIO_TRUSTED_PROXIES: TrustedProxiesSchema,
    STUDIO_BUNDLE_MAX_MEMBER_BYTES: PositiveInt.default(DEFAULT_READ_LIMITS.maxMemberBytes),
    STUDIO_BUNDLE_MAX_BYTES: PositiveInt.default(DEFAULT_READ_LIMITS.maxBundleBytes),
    STUDIO_BUNDLE_MAX_MEMBERS: PositiveInt.default(DEFAULT_READ_LIMITS.maxMembers),
    STUDIO_BUNDLE_MAX_RATIO: PositiveInt.default(DEFAULT_MAX_RATIO),
    /** All JSON members of a bundle together; sized so the worst JSON stays under the worker's heap. */
    STUDIO_BUNDLE_MAX_JSON_BYTES: PositiveInt.default(DEFAULT_MAX_JSON_BYTES),
    /** HTTP imports parsed at once, each in its own worker thread; more get 503 + Retry-After. */
    STUDIO_IMPORT_CONCURRENCY: PositiveInt.default(2),
    STUDIO_IMPORT_WORKER_MEMORY_MB: PositiveInt.default(1024),
    STUDIO_IMPORT_TIMEOUT_SECONDS: PositiveInt.default(120),
    /** Content kept per workspace or agent file of a run; larger files are kept by size and sha256 only. */
    STUDIO_MAX_STORED_FILE_BYTES: PositiveInt.default(DEFAULT_MAX_STORED_FILE_BYTES),
    /** Model keys and endpoints (each vendor SDK's own variable names), read by lib/llm/endpoints.ts. */
    GEMINI_API_KEY: z.string().min(1).optional(),
    GOOGLE_GEMINI_BASE_URL: z.url().optional(),
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_BASE_URL: z.url().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.url().optional(),
    /** The built-in `gemini` judge's model. */
    STUDIO_JUDGE_MODEL: z.string().min(1).default("gemini-2.5-flash"),
    /**
     * Distributed mode (docs/distributed.md): run-agents and evaluate jobs become queue jobs on this
     * Redis, for workers on any machine (`npm run worker -- --queue URL --studio URL --token T`).
     */
    STUDIO_QUEUE_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
      .optional(),
    /** Global rate limits per provider queue, e.g. `gemini=60/60,openai=500/60` (runs started, or judged by an LLM judge, per seconds). */
    STUDIO_QUEUE_RATE_LIMITS: RateLimitsSchema.optional(),
    /** A JSON file of LLM judge definitions (lib/judge/llm/judge-definitions.ts), for evaluate and the Jobs page. */
    STUDIO_JUDGES: z.string().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    // Past its heap cap a worker may take the whole server down with it (json-budget.ts): the JSON
    // budget's worst case must fit in the cap, or raising one of the two is a configuration error.
    const worstHeap = env.STUDIO_BUNDLE_MAX_JSON_BYTES * HEAP_BYTES_PER_JSON_BYTE;
    if (worstHeap >= env.STUDIO_IMPORT_WORKER_MEMORY_MB * 1024 * 1024) {
      ctx.addIssue({
        code: "custom",
        path: ["STUDIO_BUNDLE_MAX_JSON_BYTES"],
        message: `times ${HEAP_BYTES_PER_JSON_BYTE} (the worst heap per JSON byte measured) must stay under STUDIO_IMPORT_WORKER_MEMORY_MB (${env.STUDIO_IMPORT_WORKER_MEMORY_MB} MB)`,
      });
    }
  });
export type Env = z.infer<typeof EnvSchema>;

export function loadEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    throw new AppError("INVALID_INPUT", `environment variable ${firstIssue(result.error)}`);
  }
  return result.data;
}

export function readLimitsFrom(env: Env): ReadLimits {
  return {
    maxMemberBytes: env.STUDIO_BUNDLE_MAX_MEMBER_BYTES,
    maxBundleBytes: env.STUDIO_BUNDLE_MAX_BYTES,
    maxMembers: env.STUDIO_BUNDLE_MAX_MEMBERS,
    maxRatio: env.STUDIO_BUNDLE_MAX_RATIO,
    maxJsonBytes: env.STUDIO_BUNDLE_MAX_JSON_BYTES,
  };
}
