import fs from "node:fs";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** Patterns that reach a folder, whether through the `@/` alias or a relative path. */
const folder = (name) => [`@/${name}`, `@/${name}/*`, `**/${name}/*`, `../${name}`, `../../${name}`];

/**
 * The layers of lib/, lowest first. A folder may import the folders of the layers below its own,
 * never its own layer's other folders nor anything above: the direction is fixed, so no two
 * folders can come to need each other (agreement and dashboard did, benchmark and bundle did,
 * agents and runner did). When a folder needs one beside or above it, the shared piece moves down
 * (a type, a helper) or into a new lower folder; reordering the layers is the last resort.
 * Tests and fixtures are exempt: they may wire a real implementation from above, e.g. the agents'
 * tools run against the runner's sandbox.
 */
const LIB_LAYERS = [
  ["errors", "util", "test-support"],
  ["metrics", "llm", "analysis", "auth", "process", "security", "setup", "tool-registry", "workspace"],
  ["benchmark", "codekit"],
  ["bundle"],
  ["judge"],
  ["runs", "agents"],
  ["agreement", "runner", "foreign"],
  ["remote"],
  ["dashboard", "config", "task-check"],
  ["case-studies", "jobs", "cli"],
];

// A new folder must take a place in the order, or nothing would fix its direction.
const undeclared = fs
  .readdirSync(new URL("./lib", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LIB_LAYERS.flat().includes(entry.name))
  .map((entry) => entry.name);
if (undeclared.length > 0) throw new Error(`eslint.config.mjs: add lib/${undeclared.join(", lib/")} to LIB_LAYERS`);

/** What lib/ never imports, whichever folder: the app, the CLIs, the framework, the database. */
const LIB_FRAMEWORK_FREE = [
  {
    group: [...folder("app"), ...folder("components"), ...folder("db"), ...folder("scripts")],
    message: "lib/ is framework-free: pass what it needs as parameters.",
  },
  {
    group: ["next", "next/*", "react", "react-dom", "drizzle-orm", "drizzle-orm/*", "better-sqlite3"],
    message: "lib/ must not depend on the web framework or the database.",
  },
];

/** No lib/ file imports another lib/ folder by a relative path, so the alias patterns below see every crossing. */
const libFolder = (name) => [
  `@/lib/${name}`,
  `@/lib/${name}/*`,
  `../${name}`,
  `../${name}/*`,
  `../../${name}/*`,
  `../../../${name}/*`,
];

/** One block per lib/ folder: the framework-free patterns plus the folders at or above its layer. */
const libLayerBlocks = LIB_LAYERS.flatMap((layer, level) =>
  layer.map((name) => {
    const above = LIB_LAYERS.slice(level)
      .flat()
      .filter((other) => other !== name);
    const layering =
      above.length === 0
        ? []
        : [
            {
              group: above.flatMap(libFolder),
              message: `lib/${name} may import only lower layers (LIB_LAYERS in eslint.config.mjs): move what both need down.`,
            },
          ];
    return {
      files: [`lib/${name}/**/*.ts`, `lib/${name}/**/*.mjs`],
      ignores: ["**/*.test.ts", "**/*.fixture.ts"],
      rules: { "no-restricted-imports": ["error", { patterns: [...LIB_FRAMEWORK_FREE, ...layering] }] },
    };
  }),
);

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import/no-anonymous-default-export": "off",
    },
  },
  {
    // The domain is framework-free: lib/ is imported by the app, the CLIs and the database layer,
    // so it may import none of them (docs/architecture.md, "Layering").
    files: ["lib/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: LIB_FRAMEWORK_FREE }],
    },
  },
  // Later blocks replace a rule's options rather than merging them, so each repeats the framework ban.
  ...libLayerBlocks,
  {
    // A cycle of files is one module in pieces: none can be read, tested or moved alone. The folder
    // layers rule out cycles between lib/ folders; this catches them inside a folder and in db/.
    // Packages never import our code back, so they are not parsed: with them the rule took 144 s
    // of CPU on lib/ and db/, without them 32 s; `eslint .` takes 43 s of CPU with it, 35 s without.
    files: ["lib/**/*.ts", "db/**/*.ts"],
    settings: { "import/ignore": ["node_modules"] },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // The database layer knows lib's types, never the app or the CLIs.
    files: ["db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...folder("app"), ...folder("components"), ...folder("scripts")],
              message: "db/ may import lib/ only.",
            },
          ],
        },
      ],
    },
  },
  {
    // Components render what pages hand them: data comes in as props, never from the database.
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...folder("app"), ...folder("db"), ...folder("scripts")],
              message: "components/ get data as props; they may import lib/ (types, pure helpers).",
            },
            {
              group: ["better-sqlite3", "drizzle-orm", "drizzle-orm/*"],
              message: "components/ never touch the database.",
            },
          ],
        },
      ],
    },
  },
  {
    // CLIs are thin: they import lib/ and db/, never the web app.
    files: ["scripts/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: [...folder("app"), ...folder("components")], message: "scripts/ import lib/ and db/ only." },
          ],
        },
      ],
    },
  },
]);
