// A supervised API or worker exits, draining first, when its supervisor is killed with SIGKILL
// (scripts/supervisor.ts spawns it with an IPC channel, server/cli/process.ts stops on its close):
// `make run` killed hard leaves no orphan behind.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pidExited } from "../../scripts/supervisor.js";
import { ROOT } from "../../scripts/services.js";

const dir = mkdtempSync(path.join(tmpdir(), "supervised-exit-"));

describe("a supervised process", () => {
  let childPid: number | undefined;
  afterAll(() => {
    if (childPid) process.kill(childPid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("drains and exits when its supervisor is killed", async () => {
    const log = path.join(dir, "child.log");
    const parent = spawn(process.execPath, ["--import", "tsx", "test/run/supervisor-parent.ts", log], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    parent.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await expect
      .poll(() => /child (\d+)/.test(out) && readFileSync(log, "utf8").includes("ready"), { timeout: 30_000, interval: 100 })
      .toBe(true);
    const pid = Number(/child (\d+)/.exec(out)![1]);
    childPid = pid;
    parent.kill("SIGKILL");
    const gone = await Promise.race([pidExited(pid, 100), new Promise((r) => setTimeout(() => r("still running"), 10_000))]);
    expect(gone).toBe("gone");
    childPid = undefined;
    expect(readFileSync(log, "utf8")).toContain("stopped");
  }, 60_000);
});
