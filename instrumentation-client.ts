/**
 * Runs in the browser before any of the app's own modules.
 * zod 4 probes `Function("")` when it builds its first object schema, to decide whether to
 * compile parsers; the pages' Content-Security-Policy has no 'unsafe-eval', so Chromium reports
 * that probe as a violation (seen on the labeling workspace). The browser parses a few small
 * answers (one per fetched diff): interpreted parsing is enough there. The server keeps the JIT.
 */
// zod's core alone (its global configuration): pages whose client code does not use zod load none
// of it (the full package is 108 kB, a fifth of the jobs page's JavaScript).
import { config } from "zod/v4/core";

config({ jitless: true });
