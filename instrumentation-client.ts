/**
 * Runs in the browser before any of the app's own modules.
 * zod 4 probes `Function("")` when it builds its first object schema, to decide whether to
 * compile parsers; the pages' Content-Security-Policy has no 'unsafe-eval', so Chromium reports
 * that probe as a violation (seen on the labeling workspace). The browser parses a few small
 * answers (one per fetched diff): interpreted parsing is enough there. The server keeps the JIT.
 */
import { z } from "zod";

z.config({ jitless: true });
