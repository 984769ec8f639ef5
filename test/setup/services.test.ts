// The test harness itself: the shared Postgres and Temporal answer, each vitest worker has a
// database and a namespace of its own, and the time-skipping test server starts from .cache/ and
// skips time.
import { afterAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { Connection } from "@temporalio/client";
import { createTimeSkippingEnv } from "../harness/index.js";
import { poolId, workerDatabaseUrl, workerNamespace } from "./worker-resources.js";

describe("test services", () => {
  it("hands the same Postgres and Temporal to test files through env and inject(), with the worker's database and namespace", () => {
    expect(process.env.DATABASE_URL).toBe(workerDatabaseUrl(inject("databaseUrl"), poolId()));
    expect(new URL(process.env.DATABASE_URL!).pathname).toMatch(/^\/\w+_w\d+$/);
    expect(process.env.TEMPORAL_NAMESPACE).toBe(workerNamespace(poolId()));
    expect(inject("temporalAddress")).toBe(process.env.TEMPORAL_ADDRESS);
  });

  it("Postgres answers select 1 on the worker's copy of the migrated borealis database", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query("select 1 as one");
      expect(rows).toEqual([{ one: 1 }]);
      const migrated = await client.query("select count(*)::int as n from knex_migrations");
      expect(migrated.rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it("Temporal answers WorkflowService.getSystemInfo", async () => {
    const connection = await Connection.connect({ address: inject("temporalAddress") });
    try {
      const info = await connection.workflowService.getSystemInfo({});
      expect(info.serverVersion).toMatch(/^\d+\.\d+/);
    } finally {
      await connection.close();
    }
  });

  describe("time-skipping test server", () => {
    let env: Awaited<ReturnType<typeof createTimeSkippingEnv>> | undefined;
    afterAll(async () => {
      await env?.teardown();
    });

    it("starts from .cache/bin/temporal-test-server and skips time", async () => {
      env = await createTimeSkippingEnv();
      const before = await env.currentTimeMs();
      await env.sleep("1 day");
      expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
    });
  });
});
