// The API and the worker as the processes production runs (server/cli/api.ts, server/cli/worker.ts),
// for suites that watch what such a process sends or kill it: started under the environment given,
// ready at their first JSON log line that says so; stopped with SIGTERM (SIGKILL after 15 s).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sleep } from "../../server/kit/time.js";

/** Starts `server/cli/<name>.ts` as a process; resolves with its first log line matching `ready`. */
export async function startProcess(name: "api" | "worker", env: NodeJS.ProcessEnv, ready: (line: Record<string, unknown>) => boolean) {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL(`../../server/cli/${name}.ts`, import.meta.url))], {
    env: { ...env, LOG_LEVEL: "info", LOG_PRETTY: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`${name} exited (${String(code)}) before it was ready`);
  });
  const found = new Promise<Record<string, unknown>>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (text) => {
      try {
        const line = JSON.parse(text) as Record<string, unknown>;
        if (ready(line)) resolve(line);
      } catch {
        // not a log line
      }
    });
  });
  const line = await Promise.race([found, exited]);
  exited.catch(() => undefined);
  return { child, line };
}

export async function stopProcess(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
