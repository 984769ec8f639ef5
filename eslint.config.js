// Lint rules. Workflow code is deterministic sandboxed code: it may import only Temporal's
// workflow API, types and other workflow/shared files — never Node built-ins or server code.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

// The typed contract edge: handlers take the generated input types and return the generated
// output types, and the `toXOut` mappers build them exactly. A cast to silence the compiler
// there hides a real mismatch (Date vs string, a loose enum, a missing field): fix the types.
const noCasts = [
  {
    selector: "TSAsExpression > TSNeverKeyword",
    message: "No `as never`: make the types meet (generated input/output types, precise row types, jsonb() for jsonb columns).",
  },
  {
    selector: "TSAsExpression > TSTypeReference[typeName.name=/Out$/]",
    message: "No `as <X>Out`: the mapper must build the generated output type exactly; fix the row or mapper types.",
  },
];

// Server and workflow code builds many objects per request (a 100-item list maps 100 rows), and
// bench/object-shapes.ts measures what a spread followed by more keys costs there.
const noSpreadThenProps = {
  selector: "ObjectExpression > SpreadElement:not(:last-child)",
  message:
    "No object spread followed by more properties or spreads: on V8 11 (Node 20) each such object gets a new hidden class (microseconds each); use Object.assign onto a fresh object (Object.assign(toXBase(row), { ... }) or Object.assign({}, shared, { ... })), or list the fields.",
};

// Every query on a table lives in that table's repository (a `repository.ts`, or a `*-repository.ts`
// for a second table a domain owns), so a reader finds a table's statements in one file and a
// service reads as steps. Statements that touch no table (a health ping, advisory locks, the time
// zone catalog) live in server/kit/db.ts. The selectors catch a query started from a connection or
// transaction (`db("t")`, `trx("t")`, `db(table)`, `this.db("t")`, `db.raw(...)`, `db.from(...)`) and
// kit's row helpers, which start one on the table they are given.
const CONNECTION = "/^(db|trx|knex|tx|t)$/";
const noQueries = [
  {
    selector: `CallExpression[callee.name=${CONNECTION}][arguments.0.type=/^(Literal|TemplateLiteral)$/]`,
    message: "Queries live in the table's repository (repository.ts or <table>-repository.ts): call a repository function here.",
  },
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=${CONNECTION}][arguments.0.type=/^(Literal|TemplateLiteral)$/]`,
    message: "Queries live in the table's repository (repository.ts or <table>-repository.ts): call a repository function here.",
  },
  {
    selector: `CallExpression[callee.name=/^(db|trx|knex|tx)$/][arguments.0.type='Identifier']`,
    message: "Queries live in the table's repository (repository.ts or <table>-repository.ts): call a repository function here.",
  },
  {
    selector: "CallExpression[callee.name=/^(insertReturning|updateReturning|softDeleteRow)$/]",
    message: "kit's row helpers start a statement on the table they are given: call them from that table's repository.",
  },
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.object.name=${CONNECTION}][callee.property.name=/^(raw|from|table|into|with|select|insert|update|delete|queryBuilder)$/]`,
    message: "Queries (and raw SQL) live in the table's repository, or in server/kit/db.ts when they touch no table.",
  },
];

export default tseslint.config(
  { ignores: ["generated/**", "node_modules/**", ".cache/**", ".data/**", ".venv/**", "dist/**", "**/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        fetch: "readonly",
        Buffer: "readonly",
      },
    },
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
        {
          object: "process",
          property: "env",
          message: "Read environment variables through server/config.ts (setting, loadConfig); declare new ones in its SETTINGS.",
        },
      ],
    },
  },
  {
    files: [
      "scripts/**/*.ts",
      "bench/**/*.ts",
      "test/**/*.ts",
      "admin/src/**/*.{ts,tsx}",
      "portal/src/**/*.{ts,tsx}",
      "emails/src/**/*.{ts,tsx}",
      "shared/**/*.ts",
    ],
    rules: { "no-restricted-syntax": ["error", ...noCasts] },
  },
  {
    // One no-restricted-syntax per file (a later block replaces an earlier one's list): both rules here.
    files: ["server/**/*.ts", "workflows/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", ...noCasts, noSpreadThenProps, ...noQueries] },
  },
  {
    // The modules that own statements: repositories, migrations, the connection module, and kit's
    // row helpers (each called by a repository with its own table).
    files: [
      "server/**/repository.ts",
      "server/**/*-repository.ts",
      "workflows/**/*-repository.ts",
      "server/migrations/**/*.ts",
      "server/kit/db.ts",
      "server/kit/rows.ts",
    ],
    rules: { "no-restricted-syntax": ["error", ...noCasts, noSpreadThenProps] },
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
            {
              group: ["**/server/**", "../../server/*", "knex", "pg", "objection"],
              message: "Workflows orchestrate; I/O belongs in activities.",
            },
          ],
        },
      ],
    },
  },
);
