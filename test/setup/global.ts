// Vitest globalSetup: one Postgres (throwaway dir .data/test-pg-<pid>, deleted afterwards) and
// one in-memory Temporal dev server for the whole run, migrated to the latest schema. Test files
// get them through process.env (inherited by the forks) and through inject():
//
//   import { inject } from "vitest";
//   const knex = createKnex(inject("databaseUrl"));
//
// DATABASE_URL / TEMPORAL_ADDRESS already set in the environment are used as they are.
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import { DATA_DIR, startPostgres, startTemporal } from "../../scripts/services.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const [db, temporal] = await Promise.all([
    startPostgres({ dataDir: path.join(DATA_DIR, `test-pg-${process.pid}`), persistent: false }),
    startTemporal(),
  ]);
  const stop = async () => {
    await temporal.stop().catch((err) => console.error("stopping Temporal:", err));
    await db.stop().catch((err) => console.error("stopping Postgres:", err));
  };
  try {
    const knex = createKnex(db.url, { pool: { min: 0, max: 1 } });
    try {
      await migrateLatest(knex);
    } finally {
      await knex.destroy();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  process.env.DATABASE_URL = db.url;
  process.env.TEMPORAL_ADDRESS = temporal.address;
  project.provide("databaseUrl", db.url);
  project.provide("temporalAddress", temporal.address);
  console.log(`[global setup] Postgres and Temporal ready in ${Date.now() - started} ms`);
  return stop;
}
