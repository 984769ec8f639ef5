// `make run`: the whole stack on this machine, supervised (scripts/stack.ts): Postgres, Temporal,
// migrations and the demo organization, then the worker and the API (with the UIs built by `make
// ui`), each restarted with backoff if it dies; Mailpit catches every email. Ctrl-C drains and stops
// everything in order. Data is kept in .data/. Settings: PORT, DATABASE_URL, TEMPORAL_ADDRESS,
// SMTP_URL, TEMPORAL_UI_PORT, LOG_LEVEL, BETTER_AUTH_SECRET (else kept in .data/auth-secret).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { loadConfig, setting } from "../server/config.js";
import { seedDemo } from "../server/seed.js";
import { seedDemoOwner, type DemoOwner } from "../server/auth/demo-owner.js";
import { DATA_DIR, ROOT, freePort, startMailpit, type MailpitHandle } from "./services.js";
import { startStack, type Stack } from "./stack.js";
import { isAlive } from "./supervisor.js";

const RUN_FILE = path.join(DATA_DIR, "run.json");

/** The secret sessions are signed with: BETTER_AUTH_SECRET, or one made once and kept in the data dir. */
function authSecret(): string {
  const configured = setting("BETTER_AUTH_SECRET");
  if (configured) return configured;
  const file = path.join(DATA_DIR, "auth-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

function say(msg = "") {
  process.stdout.write(`${msg}\n`);
}

async function main() {
  // Every variable checked before anything starts: the API and worker would stop on a bad one.
  const config = loadConfig();
  const port = config.PORT;
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

  let stack: Stack | undefined;
  let mailpit: MailpitHandle | undefined;
  let shuttingDown: Promise<void> | undefined;
  const shutdown = () =>
    (shuttingDown ??= (async () => {
      await stack?.stop((name, ms, err) => {
        if (err) process.stderr.write(`  stopping ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
        else say(`  stopped ${name === "postgres" ? "Postgres" : name === "temporal" ? "Temporal" : name} (${ms} ms)`);
      });
      if (mailpit) {
        const t = Date.now();
        await mailpit.stop().then(
          () => say(`  stopped Mailpit (${Date.now() - t} ms)`),
          (err: unknown) => process.stderr.write(`  stopping Mailpit failed: ${err instanceof Error ? err.message : String(err)}\n`),
        );
      }
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
    if (!(await portIsFree(port))) {
      throw new Error(`port ${port} is in use: stop what listens there or run with PORT=<another port> make run`);
    }
    // Every email (sign-up verification, invitations, the portal's sign-in codes, receipts and
    // notifications, which the worker sends) lands in Mailpit.
    if (!config.SMTP_URL) mailpit = await startMailpit({ dbFile: path.join(DATA_DIR, "mailpit.db") });
    const smtpUrl = mailpit?.smtpUrl ?? config.SMTP_URL!;
    say("Starting Postgres and Temporal…");
    const uiPort = config.TEMPORAL_UI_PORT || (await freePort());
    let seeded: Awaited<ReturnType<typeof seedDemo>> | undefined;
    let owner: DemoOwner | undefined;
    stack = await startStack({
      dataDir: DATA_DIR,
      port,
      uiPort: config.TEMPORAL_ADDRESS ? undefined : uiPort,
      // Quiet by default: warnings and errors only (LOG_LEVEL=info shows every request).
      env: { LOG_LEVEL: config.LOG_LEVEL ?? "warn", SMTP_URL: smtpUrl, BETTER_AUTH_SECRET: authSecret() },
      log: (line) => process.stderr.write(`[supervisor] ${line}\n`),
      onMigrated: async (knex) => {
        say("Migrating the database…");
        seeded = await seedDemo(knex);
        owner = await seedDemoOwner(knex, seeded.organization.id, path.join(DATA_DIR, "demo-owner.json"));
        say("Starting the worker and the API…");
      },
    });
    if (shuttingDown) return;
    const apiUrl = stack.apiUrls[0];

    writeFileSync(
      RUN_FILE,
      JSON.stringify(
        {
          pid: process.pid,
          apiUrl,
          databaseUrl: stack.databaseUrl,
          temporalAddress: stack.temporalAddress,
          pids: Object.fromEntries(stack.supervisor.names().map((n) => [n, stack!.supervisor.pid(n)])),
        },
        null,
        2,
      ) + "\n",
    );

    const { organization, token, checkoutLinkUrl } = seeded!;
    const rel = path.relative(process.cwd(), DATA_DIR) || DATA_DIR;
    say();
    say("Borealis is running.");
    say();
    say(`  API            ${apiUrl}`);
    say(`  API docs       ${apiUrl}/docs`);
    say(`  Health         ${apiUrl}/healthz (alive), ${apiUrl}/readyz (database and Temporal reachable)`);
    say(`  Sign in        ${apiUrl}/dashboard/ (the console)`);
    say(`  Organization   ${organization.slug} (id ${organization.id})`);
    say(`  Demo owner     ${owner!.email} / ${owner!.password ?? "(the password you chose)"}`);
    say(`  Inbox          ${mailpit ? `${mailpit.httpUrl} (Mailpit: every email the platform sends)` : `SMTP_URL (${smtpUrl})`}`);
    say(`  Access token   ${token}`);
    say(`  Temporal       ${stack.temporalAddress}${stack.uiUrl ? ` (Web UI ${stack.uiUrl})` : ""}`);
    say(`  Postgres       ${stack.databaseUrl}`);
    say(`  Data           ${rel}/ (kept across restarts; delete it to start over)`);
    say(
      `  Processes      ${stack.supervisor
        .names()
        .map((n) => `${n} ${stack!.supervisor.pid(n) ?? "(external)"}`)
        .join(", ")} (restarted if they die)`,
    );
    say();
    say("Use it with @polar-sh/sdk:");
    say();
    say(`  import { Polar } from "@polar-sh/sdk";`);
    say(`  const polar = new Polar({ accessToken: "${token}", serverURL: "${apiUrl}" });`);
    say(`  const page = await polar.products.list({});`);
    say();
    say(`or with curl:`);
    say();
    say(`  curl -H "Authorization: Bearer ${token}" ${apiUrl}/v1/products/`);
    say();
    say("Buy something as a customer would:");
    say();
    say(`  1. Open the demo checkout: ${checkoutLinkUrl}`);
    say(`     and pay with the test card 4242 4242 4242 4242 (any future expiry, any CVC; docs/SANDBOX.md lists the others).`);
    say(`  2. Then sign in to the customer portal at ${apiUrl}/${organization.slug}/portal with the email you paid with:`);
    say(`     the sign-in code arrives in ${mailpit ? mailpit.httpUrl : "the inbox of SMTP_URL"}.`);
    say();
    say(`Another token: make token (ORG=<slug>). Logs: LOG_LEVEL=info make run. Stop with Ctrl-C.`);
  } catch (err) {
    process.stderr.write(`\nmake run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await shutdown();
    process.exit(1);
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

process.chdir(ROOT);
main().catch((err) => {
  process.stderr.write(`make run: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
