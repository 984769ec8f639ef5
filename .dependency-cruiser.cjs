// The import rules of the codebase, checked by `make deps-graph` (a step of `make test`).
// Type-only imports count: a circle of types is still a circle a reader has to walk, and
// every one of them was fixable by moving the shared type to the module that owns it.
/* global module */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circles: move the shared piece to a leaf module or invert the dependency.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-not-into-workflow-internals",
      severity: "error",
      comment:
        "The server reaches Temporal only through its one door (server/kit/temporal.ts) and workflows/shared; " +
        "activities and workflow code are the worker's.",
      from: { path: "^server/" },
      to: { path: "^workflows/(activities|workflows)/" },
    },
    {
      name: "workflow-code-imports-only-shared-and-temporal",
      severity: "error",
      comment:
        "Workflow code is deterministic: it imports workflows/shared, other workflow files and @temporalio/workflow " +
        "(activity interfaces as types only, from workflows/activities).",
      from: { path: "^workflows/workflows/" },
      to: {
        pathNot: [
          "^workflows/workflows/",
          "^workflows/shared/",
          "^node_modules/@temporalio/(workflow|common)/",
        ],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "workflow-code-types-only-from-shared-activities",
      severity: "error",
      comment: "Workflow code may take type-only imports from activities (proxyActivities<typeof …>), nothing from server/.",
      from: { path: "^workflows/workflows/" },
      to: { path: "^(server|generated)/" },
    },
    {
      name: "activities-take-server-as-types",
      severity: "error",
      comment:
        "Activities receive the server's services through createActivities(deps) (workflows/activities/deps.ts), built in " +
        "workflows/activity-deps.ts; they import server/ as types only, so no circle runs server → workflows → activities → server.",
      from: { path: "^workflows/activities/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-is-a-leaf",
      severity: "error",
      comment: "workflows/shared is imported by both sides, so it imports only Temporal's workflow API.",
      from: { path: "^workflows/shared/" },
      to: { pathNot: ["^workflows/shared/", "^node_modules/@temporalio/(workflow|common)/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|generated/client|admin|portal/dist|\\.cache)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
