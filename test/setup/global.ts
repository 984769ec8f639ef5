// Vitest globalSetup: one throwaway Postgres, one in-memory Temporal dev server and one Mailpit
// for the whole run, migrated (DATABASE_URL / TEMPORAL_ADDRESS already set are used as they are).
// Each vitest worker gets a database copied from the migrated one and a Temporal namespace
// (test/setup/worker-resources.ts), handed to each file by test/setup/each-file.ts. better-auth
// gets a secret for the run and its rate limiter is off (test/auth/rate-limit.test.ts turns it on).
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import { DATA_DIR, startMailpit, startPostgres, startTemporal } from "../../scripts/services.js";
import { registerNamespace, workerDatabase, workerNamespace } from "./worker-resources.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    /** Mailpit's HTTP API (and inbox), e.g. http://127.0.0.1:41234. */
    mailpitUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const [db, temporal, mailpit] = await Promise.all([
    startPostgres({ dataDir: path.join(DATA_DIR, `test-pg-${process.pid}`), persistent: false }),
    startTemporal(),
    startMailpit(),
  ]);
  const stop = async () => {
    await mailpit.stop().catch((err) => console.error("stopping Mailpit:", err));
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
    const ids = Array.from({ length: Math.max(1, project.config.maxWorkers ?? 1) }, (_, i) => String(i + 1));
    await copyDatabase(db.url, ids);
    for (const id of ids) await registerNamespace(temporal.address, workerNamespace(id));
  } catch (err) {
    await stop();
    throw err;
  }
  process.env.DATABASE_URL = db.url;
  process.env.TEMPORAL_ADDRESS = temporal.address;
  process.env.SMTP_URL = mailpit.smtpUrl;
  process.env.MAILPIT_URL = mailpit.httpUrl;
  process.env.BETTER_AUTH_SECRET ??= randomBytes(32).toString("base64url");
  process.env.AUTH_RATE_LIMIT ??= "0";
  project.provide("databaseUrl", db.url);
  project.provide("temporalAddress", temporal.address);
  project.provide("mailpitUrl", mailpit.httpUrl);
  console.log(`[global setup] Postgres, Temporal and Mailpit ready in ${Date.now() - started} ms`);
  return stop;
}

/** A fresh copy of `templateUrl`'s database for each worker id (an earlier run's copies dropped). */
async function copyDatabase(templateUrl: string, ids: string[]): Promise<void> {
  // Connected to "postgres": no session may be on a template while it is copied.
  const admin = new pg.Client({ connectionString: Object.assign(new URL(templateUrl), { pathname: "/postgres" }).toString() });
  await admin.connect();
  try {
    const template = pg.escapeIdentifier(new URL(templateUrl).pathname.slice(1));
    for (const id of ids) {
      const name = pg.escapeIdentifier(workerDatabase(templateUrl, id));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name} template ${template}`);
    }
  } finally {
    await admin.end();
  }
}
