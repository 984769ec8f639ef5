// The whole platform on this machine, supervised: PostgreSQL, the Temporal dev server, migrations,
// then workers and APIs as processes of their own (server/cli/). Each is restarted with backoff
// when it dies (scripts/supervisor.ts), on the ports it first had. Used by `make run` and `make
// chaos`. With DATABASE_URL / TEMPORAL_ADDRESS set, those are used and not supervised.
import path from "node:path";
import type { Knex } from "knex";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { ROOT, startPostgres, startTemporal } from "./services.js";
import { nodeProcess, pidExited, Supervisor, type Backoff, type Instance } from "./supervisor.js";
import { sleep } from "../server/kit/time.js";

export interface StackOptions {
  dataDir: string;
  /** The first API's port; the others listen on the next ones. */
  port: number;
  apis?: number;
  workers?: number;
  /** Temporal Web UI port (none when not given). */
  uiPort?: number;
  /** More environment for the API and worker processes (LOG_LEVEL, SANDBOX_LEDGER_DIR, ...). */
  env?: NodeJS.ProcessEnv;
  /** Where the API and worker processes write (default: this process's stdout and stderr). */
  stdio?: "inherit" | "ignore" | ["ignore", number, number];
  log: (line: string) => void;
  /** Runs once the database is migrated, before the API and worker start (the demo seed). */
  onMigrated?: (knex: Knex) => Promise<void>;
  backoff?: Backoff;
  /** Start our own PostgreSQL and Temporal even when DATABASE_URL / TEMPORAL_ADDRESS are set (chaos under the test suite). */
  ownServices?: boolean;
}

export interface Stack {
  supervisor: Supervisor;
  databaseUrl: string;
  temporalAddress: string;
  uiUrl?: string;
  apiUrls: string[];
  /** Service names: "postgres", "temporal", "worker", "worker-2", ..., "api", "api-2", ... */
  apis: string[];
  workers: string[];
  /** Stops the APIs, then the workers (both drain), then Temporal, then PostgreSQL. */
  stop(onStopped?: (name: string, ms: number, err?: unknown) => void): Promise<void>;
}

const never = new Promise<string>(() => undefined);
export async function startStack(opts: StackOptions): Promise<Stack> {
  const supervisor = new Supervisor(opts.log, opts.backoff);
  let pgPort: number | undefined;
  let databaseUrl = "";
  let temporalPort: number | undefined;
  let temporalAddress = "";
  let uiUrl: string | undefined;
  const apis = Array.from({ length: opts.apis ?? 1 }, (_, i) => (i === 0 ? "api" : `api-${i + 1}`));
  const workers = Array.from({ length: opts.workers ?? 1 }, (_, i) => (i === 0 ? "worker" : `worker-${i + 1}`));
  const stop: Stack["stop"] = (onStopped) => supervisor.stop([...apis, ...workers, "temporal", "postgres"], onStopped);

  try {
    await Promise.all([
      supervisor.add(
        {
          name: "postgres",
          start: async (): Promise<Instance> => {
            const pg = await startPostgres({
              dataDir: path.join(opts.dataDir, "pg"),
              persistent: true,
              port: pgPort,
              ignoreEnv: opts.ownServices,
            });
            pgPort ??= pg.port;
            databaseUrl = pg.url;
            return { pid: pg.pid, exited: pg.pid ? pidExited(pg.pid) : never, stop: pg.stop };
          },
        },
        { mustStart: true },
      ),
      supervisor.add(
        {
          name: "temporal",
          start: async (): Promise<Instance> => {
            const t = await startTemporal({
              dbFile: path.join(opts.dataDir, "temporal.db"),
              port: temporalPort,
              uiPort: opts.uiPort,
              ignoreEnv: opts.ownServices,
            });
            temporalAddress = t.address;
            temporalPort ??= Number(t.address.split(":").at(-1));
            uiUrl = t.uiUrl;
            return { pid: t.pid, exited: t.exited ?? never, stop: t.stop };
          },
        },
        { mustStart: true },
      ),
    ]);

    const knex = createKnex(databaseUrl, { pool: { min: 0, max: 2 } });
    try {
      await migrateLatest(knex);
      await opts.onMigrated?.(knex);
    } finally {
      await knex.destroy();
    }

    const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
      ...process.env,
      // The sandbox processor's answers, shared by every process: a charge retried by another
      // process (a restarted API, the worker's confirm recovery) gets the first answer.
      SANDBOX_LEDGER_DIR: path.join(opts.dataDir, "sandbox-ledger"),
      ...opts.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      BOREALIS_SUPERVISED: "1",
      ...extra,
    });
    const script = (name: string) => path.join(ROOT, "server", "cli", name);
    await Promise.all(
      workers.map((name) =>
        supervisor.add({ name, start: nodeProcess({ script: script("worker.ts"), cwd: ROOT, env: env({}), stdio: opts.stdio }) }),
      ),
    );
    const apiUrls = apis.map((_, i) => `http://127.0.0.1:${opts.port + i}`);
    await Promise.all(
      apis.map((name, i) =>
        supervisor.add({
          name,
          start: nodeProcess({
            script: script("api.ts"),
            cwd: ROOT,
            env: env({ PORT: String(opts.port + i), HOST: "127.0.0.1" }),
            stdio: opts.stdio,
          }),
        }),
      ),
    );
    for (const url of apiUrls) await waitForHttp(`${url}/healthz`, 90_000);
    return { supervisor, databaseUrl, temporalAddress, uiUrl, apiUrls, apis, workers, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Waits until `url` answers 200. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (${last})`);
}
