// `make run`: the whole stack on this machine. Starts Postgres (.data/pg), the Temporal dev
// server (.data/temporal.db) and Mailpit (.data/mailpit.db, where every email lands), migrates,
// seeds the demo organization and its owner, starts the Temporal worker and the API (which serves
// the console, the hosted checkout and the customer portal, built by `make ui` first), and prints
// how to use it, a demo checkout link among it. Ctrl-C / SIGTERM stops the API, the worker,
// Mailpit, Temporal and Postgres, in that order, and exits 0. Data is kept in .data/ across restarts.
//
// Environment: PORT (API port, default 8000), DATABASE_URL / TEMPORAL_ADDRESS / SMTP_URL (use
// those instead of starting the embedded ones), TEMPORAL_UI_PORT (Temporal Web UI port),
// BETTER_AUTH_SECRET (else one kept in .data/auth-secret).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Knex } from "knex";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { startApi, type ApiHandle } from "../server/main.js";
import { seedDemo } from "../server/seed.js";
import { startWorker } from "../workflows/worker.js";
import { seedDemoOwner } from "../server/auth/demo-owner.js";
import {
  DATA_DIR, ROOT, freePort, startMailpit, startPostgres, startTemporal, type MailpitHandle, type PostgresHandle, type TemporalHandle,
} from "./services.js";

const RUN_FILE = path.join(DATA_DIR, "run.json");

/** The secret sessions are signed with: BETTER_AUTH_SECRET, or one made once and kept in the data dir. */
function authSecret(): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET;
  const file = path.join(DATA_DIR, "auth-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function say(msg = "") {
  process.stdout.write(`${msg}\n`);
}

async function main() {
  const port = Number(process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  mkdirSync(DATA_DIR, { recursive: true });
  // One `make run` per checkout: a second one would fight the first over .data/.
  if (existsSync(RUN_FILE)) {
    let other = 0;
    try {
      other = Number((JSON.parse(readFileSync(RUN_FILE, "utf8")) as { pid?: number }).pid);
    } catch {
      /* unreadable: a leftover */
    }
    if (other && other !== process.pid && isAlive(other)) {
      throw new Error(`make run is already running in this checkout (pid ${other}); stop it first`);
    }
  }
  writeFileSync(RUN_FILE, JSON.stringify({ pid: process.pid }) + "\n");

  // Everything started so far, stopped in reverse order of importance: API, worker, Temporal, Postgres.
  let db: PostgresHandle | undefined;
  let temporal: TemporalHandle | undefined;
  let mailpit: MailpitHandle | undefined;
  let knex: Knex | undefined;
  let worker: { shutdown(): Promise<void> } | undefined;
  let api: ApiHandle | undefined;
  let shuttingDown: Promise<void> | undefined;

  const step = async (name: string, fn: (() => Promise<unknown>) | undefined) => {
    if (!fn) return;
    const t = Date.now();
    try {
      await fn();
      say(`  stopped ${name} (${Date.now() - t} ms)`);
    } catch (err) {
      process.stderr.write(`  stopping ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  };
  const shutdown = () =>
    (shuttingDown ??= (async () => {
      await step("API", api && (() => api!.close()));
      await step("worker", worker && (() => worker!.shutdown()));
      await step("Mailpit", mailpit && (() => mailpit!.stop()));
      await step("database pool", knex && (() => knex!.destroy()));
      await step("Mailpit", mailpit && (() => mailpit!.stop()));
      await step("Temporal", temporal && (() => temporal!.stop()));
      await step("Postgres", db && (() => db!.stop()));
      rmSync(RUN_FILE, { force: true });
    })());

  // A terminal's Ctrl-C reaches this process twice at once: from the terminal (it signals the whole
  // process group) and relayed by the tsx launcher. Only a signal a second or more after the first
  // is someone asking again to force the exit.
  let firstSignalAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    const now = Date.now();
    if (firstSignalAt && now - firstSignalAt < 1_000) return;
    const again = firstSignalAt !== 0;
    firstSignalAt ||= now;
    if (again) {
      process.stderr.write(`\n${sig} again: exiting without waiting\n`);
      process.exit(1);
    }
    say(`\n${sig}: shutting down (again to force)…`);
    void shutdown().then(() => process.exit(0));
  };
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, onSignal);

  try {
    say("Starting Postgres, Temporal and Mailpit…");
    const uiPort = Number(process.env.TEMPORAL_UI_PORT ?? 0) || (await freePort());
    [db, temporal, mailpit] = await Promise.all([
      startPostgres({ dataDir: path.join(DATA_DIR, "pg"), persistent: true }),
      startTemporal({ dbFile: path.join(DATA_DIR, "temporal.db"), uiPort: process.env.TEMPORAL_ADDRESS ? undefined : uiPort }),
      process.env.SMTP_URL ? undefined : startMailpit({ dbFile: path.join(DATA_DIR, "mailpit.db") }),
    ]);
    if (mailpit) process.env.SMTP_URL = mailpit.smtpUrl;
    process.env.BETTER_AUTH_SECRET = authSecret();
    if (shuttingDown) return;

    knex = createKnex(db.url);
    say("Migrating the database…");
    await migrateLatest(knex);
    const seeded = await seedDemo(knex);
    if (shuttingDown) return;

    worker = await startWorker({ knex, temporalAddress: temporal.address });
    try {
      api = await startApi({ knex, port, temporalAddress: temporal.address });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new Error(`port ${port} is in use: stop what listens there or run with PORT=<another port> make run`);
      }
      throw err;
    }
    if (shuttingDown) return;
    const owner = await seedDemoOwner(api.auth, knex, seeded.organization.id, path.join(DATA_DIR, "demo-owner.json"));

    writeFileSync(
      RUN_FILE,
      JSON.stringify({ pid: process.pid, apiUrl: api.url, databaseUrl: db.url, temporalAddress: temporal.address }, null, 2) + "\n",
    );

    const { organization, token, checkoutLinkUrl } = seeded;
    const rel = path.relative(process.cwd(), DATA_DIR) || DATA_DIR;
    say();
    say("Borealis is running.");
    say();
    say(`  API            ${api.url}`);
    say(`  API docs       ${api.url}/docs`);
    say(`  Sign in        ${api.url}/dashboard/ (the console)`);
    say(`  Organization   ${organization.slug} (id ${organization.id})`);
    say(`  Demo owner     ${owner.email} / ${owner.password ?? "(the password you chose)"}`);
    say(`  Inbox          ${mailpit ? `${mailpit.httpUrl} (Mailpit: every email the platform sends)` : `SMTP_URL (${process.env.SMTP_URL})`}`);
    say(`  Access token   ${token}`);
    say(`  Temporal       ${temporal.address}${temporal.uiUrl ? ` (Web UI ${temporal.uiUrl})` : ""}`);
    say(`  Postgres       ${db.url}`);
    say(`  Data           ${rel}/ (kept across restarts; delete it to start over)`);
    say();
    say("Use it with @polar-sh/sdk:");
    say();
    say(`  import { Polar } from "@polar-sh/sdk";`);
    say(`  const polar = new Polar({ accessToken: "${token}", serverURL: "${api.url}" });`);
    say(`  const page = await polar.products.list({});`);
    say();
    say(`or with curl:`);
    say();
    say(`  curl -H "Authorization: Bearer ${token}" ${api.url}/v1/products/`);
    say();
    say("Buy something as a customer would:");
    say();
    say(`  1. Open the demo checkout: ${checkoutLinkUrl}`);
    say(`     and pay with the test card 4242 4242 4242 4242 (any future expiry, any CVC; docs/SANDBOX.md lists the others).`);
    say(`  2. Then sign in to the customer portal at ${api.url}/${organization.slug}/portal with the email you paid with:`);
    say(`     the sign-in code arrives in ${mailpit ? mailpit.httpUrl : "the inbox of SMTP_URL"}.`);
    say();
    say(`Another token: make token (ORG=<slug>). Stop with Ctrl-C.`);
  } catch (err) {
    process.stderr.write(`\nmake run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await shutdown();
    process.exit(1);
  }
}

process.chdir(ROOT);
main().catch((err) => {
  process.stderr.write(`make run: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
