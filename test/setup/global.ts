// Vitest globalSetup, run for each project (vitest.config.ts): one throwaway Postgres, one
// in-memory Temporal dev server and one Mailpit shared by the projects, migrated (DATABASE_URL /
// TEMPORAL_ADDRESS already set are used as they are); each worker id gets a database copied from
// the migrated one and a Temporal namespace (worker-resources.ts). better-auth gets a secret for
// the run and its rate limiter is off (test/auth/rate-limit.test.ts turns it on).
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

interface Services {
  databaseUrl: string;
  temporalAddress: string;
  mailpitUrl: string;
  /** Worker ids whose database and namespace exist. */
  workers: Set<string>;
  stop(): Promise<void>;
  /** Projects still running on them. */
  users: number;
}

// Vitest runs a project's global setup per project in this one process: the projects share
// these services, started by the first and stopped by the last.
const shared = globalThis as { borealisTestServices?: Promise<Services> };

async function startServices(): Promise<Services> {
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
  console.log(`[global setup] Postgres, Temporal and Mailpit ready in ${Date.now() - started} ms`);
  return { databaseUrl: db.url, temporalAddress: temporal.address, mailpitUrl: mailpit.httpUrl, workers: new Set(), stop, users: 0 };
}

export default async function setup(project: TestProject) {
  const services = await (shared.borealisTestServices ??= startServices());
  services.users += 1;
  try {
    // Worker ids no earlier project made (the groups run one after the other and share theirs).
    const ids = Array.from({ length: Math.max(1, project.config.maxWorkers ?? 1) }, (_, i) => String(i + 1)).filter(
      (id) => !services.workers.has(id),
    );
    ids.forEach((id) => services.workers.add(id));
    await copyDatabase(services.databaseUrl, ids);
    for (const id of ids) await registerNamespace(services.temporalAddress, workerNamespace(id));
  } catch (err) {
    await release(services);
    throw err;
  }
  project.provide("databaseUrl", services.databaseUrl);
  project.provide("temporalAddress", services.temporalAddress);
  project.provide("mailpitUrl", services.mailpitUrl);
  return () => release(services);
}

async function release(services: Services): Promise<void> {
  services.users -= 1;
  if (services.users === 0) {
    shared.borealisTestServices = undefined;
    await services.stop();
  }
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
