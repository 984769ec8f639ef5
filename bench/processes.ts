// The served processes of the HTTP benchmarks (bench/run.ts, bench/pipeline.ts): started as child
// processes that print their URLs as JSON, stopped, and their CPU time read while under load.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** A process's CPU time so far in µs (Linux: /proc/<pid>/stat, utime + stime in clock ticks of 10 ms). */
export function cpuTime(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined; // not Linux: the CPU column stays empty
  }
}

/** Starts `script` as a child process and returns it with the JSON of its first stdout line. */
export async function spawnJson<T>(
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ReturnType<typeof spawn>; info: T }> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return { child, info: JSON.parse(line) as T };
}

export async function stop(child: ReturnType<typeof spawn> | undefined) {
  if (!child) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}
