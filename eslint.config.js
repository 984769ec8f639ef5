// Lint rules. Workflow code is deterministic sandboxed code: it may import only Temporal's
// workflow API, types and other workflow/shared files — never Node built-ins or server code.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

export default tseslint.config(
  { ignores: ["generated/**", "node_modules/**", ".cache/**", ".data/**", ".venv/**", "dist/**", "**/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", fetch: "readonly", Buffer: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    // One config: server/config.ts is the only reader of the environment in server/ and workflows/.
    files: ["server/**/*.ts", "workflows/**/*.ts"],
    ignores: ["server/config.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read environment variables through server/config.ts (setting, loadConfig); declare new ones in its SETTINGS." },
      ],
    },
  },
  {
    files: ["workflows/workflows/**/*.ts", "workflows/shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
            name,
            message: "Workflow code runs in Temporal's deterministic sandbox: no Node built-ins.",
          })),
          patterns: [
            { group: ["**/server/**", "../../server/*", "knex", "pg", "objection"], message: "Workflows orchestrate; I/O belongs in activities." },
          ],
        },
      ],
    },
  },
);
