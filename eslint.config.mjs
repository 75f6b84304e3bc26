import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** Patterns that reach a folder, whether through the `@/` alias or a relative path. */
const folder = (name) => [`@/${name}`, `@/${name}/*`, `**/${name}/*`, `../${name}`, `../../${name}`];

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
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...folder("app"), ...folder("components"), ...folder("db"), ...folder("scripts")],
              message: "lib/ is framework-free: pass what it needs as parameters.",
            },
            {
              group: ["next", "next/*", "react", "react-dom", "drizzle-orm", "drizzle-orm/*", "better-sqlite3"],
              message: "lib/ must not depend on the web framework or the database.",
            },
          ],
        },
      ],
    },
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
