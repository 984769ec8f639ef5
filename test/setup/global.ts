// Vitest globalSetup: one throwaway Postgres (.data/test-pg-<pid>), one in-memory Temporal dev
// server and one Mailpit for the whole run, migrated. Files get them through process.env and
// inject("databaseUrl") / inject("temporalAddress"); DATABASE_URL / TEMPORAL_ADDRESS already set
// are used as they are. better-auth gets a secret for the run and its rate limiter is off
// (AUTH_RATE_LIMIT=0; test/auth/rate-limit.test.ts turns it on).
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createKnex, migrateLatest } from "../../server/kit/db.js";
import { DATA_DIR, startMailpit, startPostgres, startTemporal } from "../../scripts/services.js";

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
