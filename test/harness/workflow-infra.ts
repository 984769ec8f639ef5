// Infrastructure for the workflow tests: PostgreSQL and a Temporal dev server (the suite's, from
// DATABASE_URL / TEMPORAL_ADDRESS, or started here through scripts/services.ts), plus a database
// and a Temporal namespace of this file's own. Other files emit outbox rows and may run their own
// relay, so counting "exactly once" is only meaningful inside an isolated database + namespace.
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Knex } from "knex";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { DATA_DIR, startPostgres, startTemporal, type PostgresHandle, type TemporalHandle } from "../../scripts/services.js";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import { registerNamespace } from "../setup/worker-resources.js";

export { registerNamespace };

export interface WorkflowInfra {
  knex: Knex;
  /** This file's own database (for a child process). */
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
}

/** Registers beforeAll/afterAll hooks; read the fields inside tests (they are set by then). */
export function useWorkflowInfra(): WorkflowInfra {
  const state = {} as WorkflowInfra & { pg?: PostgresHandle; temporal?: TemporalHandle; adminUrl?: string; database?: string };
  const suffix = randomUUID().replaceAll("-", "").slice(0, 12);

  beforeAll(async () => {
    // startPostgres/startTemporal return the environment's servers when those variables are set.
    state.pg = await startPostgres({ dataDir: path.join(DATA_DIR, `workflows-pg-${process.pid}`), persistent: false });
    state.temporal = await startTemporal();

    state.database = `workflows_${suffix}`;
    state.adminUrl = withDatabase(state.pg.url, "postgres");
    await adminQuery(state.adminUrl, `create database ${state.database}`);
    state.databaseUrl = withDatabase(state.pg.url, state.database);
    state.knex = createKnex(state.databaseUrl);
    await migrateLatest(state.knex);

    state.temporalAddress = state.temporal.address;
    state.namespace = `workflows-test-${suffix}`;
    await registerNamespace(state.temporalAddress, state.namespace);
  }, 120_000);

  afterAll(async () => {
    await state.knex?.destroy();
    if (state.adminUrl && state.database) {
      await adminQuery(state.adminUrl, `drop database if exists ${state.database} with (force)`).catch(() => {});
    }
    await state.temporal?.stop();
    await state.pg?.stop();
  }, 120_000);

  return state;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
