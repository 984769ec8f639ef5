// A small process supervisor for `make run` and `make chaos`: each service (PostgreSQL, the
// Temporal dev server, the worker, the API) is started, watched, and started again when it exits
// without being asked to, after a backoff that doubles from 0.5 s up to 30 s and starts over once
// it has stayed up a minute. Every exit and restart is logged. `stop` stops the services in the
// order given, without restarting them.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";

/** One running instance of a service. */
export interface Instance {
  /** Its process id, when there is a process of ours to watch (none for an external database). */
  pid: number | undefined;
  /** Settles when it exits, with how ("code 1", "signal SIGKILL"). */
  exited: Promise<string>;
  /** Stops it (gracefully, then by force); resolves once it is gone. */
  stop(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  start(): Promise<Instance>;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** An instance that stayed up this long starts the backoff over. */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };

interface Watched {
  spec: ServiceSpec;
  current: Instance | undefined;
  restarts: number;
  stopping: boolean;
  loop: Promise<void>;
  /** Wakes a backoff sleep early when stopping. */
  wake?: () => void;
}

export class Supervisor {
  private readonly services = new Map<string, Watched>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {}

  /**
   * Starts a service and keeps it running. Resolves once its first instance has started; with
   * `mustStart`, rejects (and gives up) if that first start fails, else keeps trying.
   */
  add(spec: ServiceSpec, opts: { mustStart?: boolean } = {}): Promise<void> {
    let started!: () => void;
    let failed!: (err: unknown) => void;
    const firstStart = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    const watched: Watched = { spec, current: undefined, restarts: 0, stopping: false, loop: Promise.resolve() };
    this.services.set(spec.name, watched);
    watched.loop = this.run(watched, opts.mustStart ?? false, started, failed);
    return firstStart;
  }

  pid(name: string): number | undefined {
    return this.services.get(name)?.current?.pid;
  }

  restarts(name: string): number {
    return this.services.get(name)?.restarts ?? 0;
  }

  names(): string[] {
    return [...this.services.keys()];
  }

  private async run(w: Watched, mustStart: boolean, started: () => void, failed: (err: unknown) => void): Promise<void> {
    let delay = this.backoff.initialMs;
    let first = true;
    while (!w.stopping) {
      const t = Date.now();
      try {
        w.current = await w.spec.start();
      } catch (err) {
        if (first && mustStart) {
          failed(err);
          return;
        }
        if (w.stopping) return;
        this.log(
          `${w.spec.name} could not start: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}; trying again in ${delay} ms`,
        );
        await this.pause(w, delay);
        delay = Math.min(delay * 2, this.backoff.maxMs);
        continue;
      }
      if (first) {
        first = false;
        started();
      }
      if (w.stopping) {
        // Asked to stop while it was starting.
        await w.current.stop().catch(() => undefined);
        return;
      }
      const how = await w.current.exited;
      if (w.stopping) return;
      const upMs = Date.now() - t;
      if (upMs >= this.backoff.resetAfterMs) delay = this.backoff.initialMs;
      w.restarts++;
      this.log(`${w.spec.name} exited (${how}) after ${(upMs / 1000).toFixed(1)} s; restarting in ${delay} ms (restart ${w.restarts})`);
      // Whatever the dead instance left behind (exit hooks, pid files) is cleaned up.
      await w.current.stop().catch(() => undefined);
      w.current = undefined;
      await this.pause(w, delay);
      delay = Math.min(delay * 2, this.backoff.maxMs);
    }
  }

  private pause(w: Watched, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      w.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Stops the named services one after the other (all of them, in the order added reversed, when none are named). */
  async stop(
    order: string[] = [...this.services.keys()].reverse(),
    onStopped?: (name: string, ms: number, err?: unknown) => void,
  ): Promise<void> {
    for (const name of order) {
      const w = this.services.get(name);
      if (!w) continue;
      w.stopping = true;
      w.wake?.();
      const t = Date.now();
      try {
        // A running instance is stopped here; one still starting is stopped by its loop.
        await w.current?.stop();
        await w.loop;
        onStopped?.(name, Date.now() - t);
      } catch (err) {
        onStopped?.(name, Date.now() - t, err);
      }
    }
  }
}

/** How a child process ended, in words. */
function howExited(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve(child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`);
    child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
  });
}

type ChildStdio = "inherit" | "ignore" | ["ignore", number | "inherit", number | "inherit"];

/** A Node program as a supervised instance: SIGTERM to stop (it drains), SIGKILL after `killAfterMs`. */
export function nodeProcess(opts: {
  script: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  killAfterMs?: number;
  /** Where its output goes (default: this process's stdout and stderr). */
  stdio?: ChildStdio;
}): () => Promise<Instance> {
  return async () => {
    // With an IPC channel: the child exits when it closes, that is when this process is gone.
    const child = spawn(process.execPath, ["--import", "tsx", opts.script], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: withIpc(opts.stdio ?? ["ignore", "inherit", "inherit"]),
    });
    child.channel?.unref();
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    const exited = howExited(child);
    let stopping: Promise<void> | undefined;
    return {
      pid: child.pid,
      exited,
      stop: () =>
        (stopping ??= (async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), opts.killAfterMs ?? 35_000);
          await exited;
          clearTimeout(killer);
        })()),
    };
  };
}

/** The spawn stdio `stdio` with an IPC channel as the fourth descriptor. */
function withIpc(stdio: ChildStdio): StdioOptions {
  return typeof stdio === "string" ? [stdio, stdio, stdio, "ipc"] : [...stdio, "ipc"];
}

/** Whether process `pid` exists (one of another user's counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Settles when process `pid` is gone (checked every `everyMs`). */
export function pidExited(pid: number, everyMs = 500): Promise<string> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (isAlive(pid)) return;
      clearInterval(timer);
      resolve("gone");
    }, everyMs);
  });
}
