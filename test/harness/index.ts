// The tests' one harness: every suite imports what starts the stack and builds its data from here.
//
// The stack: test/setup/global.ts (vitest's globalSetup) starts one PostgreSQL, one Temporal dev
// server and Mailpit for the run; a file then starts what it needs on top of them:
//   useTestApi(options?)    the API on a random port over the run's database (responses validated
//                           against the contract; its own startApi options and environment when
//                           given); `api.client(token)` is the official SDK client (0.34.17),
//                           `api.client049(token)` the newest 0.x one (0.49.0),
//                           `api.startAnother(options)` a second API over the same database
//   useTestDatabase()       the run's database alone (suites whose API runs as a child process)
//   startProcess(...)       server/cli/api.ts or worker.ts as a process of its own (stopProcess ends it)
//   useTestWorker(...)      a Temporal worker of the file's own on the dev server (fresh task queue)
//   activityDeps(knex)      the activities' services, as the worker builds them (workflows/activity-deps.ts)
//   useWorkflowInfra()      a database and a Temporal namespace of the file's own (exactly-once counts)
//   useTimeSkippingWorker() the Java test server and a worker on it, for workflow tests that skip time
//   signedOutClient(...)    a browser's better-auth client (sign-up through Mailpit's inbox)
// The data: small factories writing rows as the API would (organization + token, product with a
// price, customer, order (paid), payment, checkout product, meter, event, benefit, grant…), a
// subscription as checkout confirmation leaves it, billing test clocks through the API.
// The checks: `rejects` (a typed SDK error), `collectPages`, `locOf` (a 422's field), Mailpit reads,
// `pdfRows` (a rendered invoice's text);
// `fetchFrom(local, …)` calls from a loopback address of its own (another client to the API);
// `runPython(script, input)` runs a suite's script with the venv's Polar Python client.
// Suite-specific rigs stay beside their suites: test/browser/harness.ts (Chromium), test/webhooks/harness.ts.
export * from "./api.js";
export * from "./auth.js";
export * from "./buckets.js";
export * from "./clocks.js";
export * from "./expect.js";
export * from "./factories.js";
export * from "./mailpit.js";
export * from "./pdf.js";
export * from "./peers.js";
export * from "./plain-json.js";
export * from "./processes.js";
export * from "./python.js";
export * from "./subscription-fixture.js";
export * from "./temporal.js";
export * from "./worker.js";
export * from "./workflow-infra.js";
export { invalid } from "./invalid.js";
