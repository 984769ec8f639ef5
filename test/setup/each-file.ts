// Vitest setupFiles: before each test file, point DATABASE_URL and TEMPORAL_NAMESPACE at this
// worker's own database and namespace (test/setup/global.ts made them). A worker runs many files
// in one process (isolate off): each file starts from the worker's first environment and from
// fresh copies of our own modules; node_modules stay loaded. Child processes inherit the variables.
import { inject, vi } from "vitest";
import { poolId, workerDatabaseUrl, workerNamespace } from "./worker-resources.js";

declare global {
  var borealisFirstEnv: Record<string, string | undefined> | undefined;
}

const first = (globalThis.borealisFirstEnv ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
Object.assign(process.env, first);
vi.resetModules();

process.env.DATABASE_URL = workerDatabaseUrl(inject("databaseUrl"), poolId());
process.env.TEMPORAL_NAMESPACE = workerNamespace(poolId());
