// Vitest setupFiles: before each test file, point DATABASE_URL and TEMPORAL_NAMESPACE at this
// worker's own database and namespace (test/setup/global.ts made them). Child processes the file
// starts inherit them.
import { inject } from "vitest";
import { poolId, workerDatabaseUrl, workerNamespace } from "./worker-resources.js";

process.env.DATABASE_URL = workerDatabaseUrl(inject("databaseUrl"), poolId());
process.env.TEMPORAL_NAMESPACE = workerNamespace(poolId());
