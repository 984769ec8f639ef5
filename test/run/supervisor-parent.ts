// A supervisor in small, for supervised-exit.test.ts: starts supervised-child.ts as scripts/supervisor.ts
// starts the API and the worker, prints its pid, and waits to be killed.
import { openSync } from "node:fs";
import { nodeProcess } from "../../scripts/supervisor.js";

const out = openSync(process.argv[2], "a");
const child = await nodeProcess({
  script: "test/run/supervised-child.ts",
  cwd: process.cwd(),
  env: process.env,
  stdio: ["ignore", out, out],
})();
process.stdout.write(`child ${child.pid}\n`);
setTimeout(() => {}, 600_000);
