// Vitest setupFiles: before each test file, point DATABASE_URL and TEMPORAL_NAMESPACE at this
// worker's own database and namespace (test/setup/global.ts made them). A worker runs many files
// in one process (isolate off): each file starts from the worker's first environment and from the
// configured parts (what an earlier file swapped in is dropped); our modules stay loaded, except
// around a file that mocks one (vi.mock): it and the file after it get fresh copies.
import { readFileSync } from "node:fs";
import { expect, inject, vi } from "vitest";
import { poolId, workerDatabaseUrl, workerNamespace } from "./worker-resources.js";

declare global {
  var borealisFirstEnv: Record<string, string | undefined> | undefined;
  var borealisModulesMocked: boolean | undefined;
}

const first = (globalThis.borealisFirstEnv ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
Object.assign(process.env, first);

process.env.DATABASE_URL = workerDatabaseUrl(inject("databaseUrl"), poolId());
process.env.TEMPORAL_NAMESPACE = workerNamespace(poolId());

const testPath = expect.getState().testPath;
const mocks = testPath === undefined || readFileSync(testPath, "utf8").includes("vi.mock(");
if (mocks || globalThis.borealisModulesMocked) {
  // Fresh copies, loaded by the test file after its mocks are in place.
  vi.resetModules();
} else {
  // The loaded parts: what an earlier file swapped in goes back to the configured ones.
  const [{ setStorage }, { setProcessor }, { setBenefitVerifier }, { setStripeTaxConfig }, { setWorkflowsDoor }] = await Promise.all([
    import("../../server/files/storage.js"),
    import("../../server/processors/index.js"),
    import("../../server/benefits/verifier.js"),
    import("../../server/tax/providers.js"),
    import("../../server/workflows-door.js"),
  ]);
  setStorage(null);
  setProcessor(null);
  setBenefitVerifier(null);
  setStripeTaxConfig(null);
  setWorkflowsDoor(null);
}
globalThis.borealisModulesMocked = mocks;
