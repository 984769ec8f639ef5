// The tests' one harness: suites import from here what starts the stack and builds their data.
// test/setup/global.ts starts one PostgreSQL, Temporal dev server and Mailpit for the run; a file
// starts what it needs on top (the modules below say what each gives). Suite-specific rigs stay
// beside their suites: test/browser/harness.ts (Chromium), test/webhooks/harness.ts.

// useTestApi (api.client, api.client049, api.startAnother), useTestDatabase
export * from "./api.js";
// signedOutClient, signUpVerified: a browser's better-auth client
export * from "./auth.js";
export * from "./buckets.js";
// testClocks: billing test clocks through the API
export * from "./clocks.js";
// rejects (a typed SDK error), collectPages, locOf (a 422's field)
export * from "./expect.js";
// rows written as the API would: organization + token, product, customer, order…
export * from "./factories.js";
// the emails the API sent
export * from "./mailpit.js";
// pdfRows: a rendered invoice's text
export * from "./pdf.js";
// fetchFrom: a call from a loopback address of its own
export * from "./peers.js";
export * from "./plain-json.js";
// startProcess: server/cli/api.ts or worker.ts as a process of its own
export * from "./processes.js";
// runPython: a script run with the venv's Polar Python client
export * from "./python.js";
// a subscription as checkout confirmation leaves it
export * from "./subscription-fixture.js";
// useTimeSkippingWorker: workflow tests that skip time
export * from "./temporal.js";
// useTestWorker, activityDeps: a Temporal worker of the file's own
export * from "./worker.js";
// useWorkflowInfra: a database and a Temporal namespace of the file's own
export * from "./workflow-infra.js";
export { invalid } from "./invalid.js";
