// `make run` as a new user meets it: it starts PostgreSQL and Temporal itself, migrates, seeds the
// demo organization, prints the API URL, the docs URL and a token that the official client can
// use, keeps its data across restarts, and stops everything cleanly on SIGTERM.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import path from "node:path";
import { Polar } from "@polar-sh/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../../scripts/services.js";

const dataDir = path.join(ROOT, ".data", `run-test-${process.pid}`);

async function startRun(port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BOREALIS_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/run.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const deadline = Date.now() + 90_000;
  while (!out.includes("Stop with Ctrl-C")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`make run did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const api = /API\s+(http\S+)/.exec(out)![1];
  const docs = /API docs\s+(http\S+)/.exec(out)![1];
  const token = /Access token\s+(polar_oat_\S+)/.exec(out)![1];
  const stop = async () => {
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    return { code, out };
  };
  return { api, docs, token, stop };
}

describe("make run", () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("starts the platform, prints a working token, keeps data across restarts, stops cleanly", async () => {
    const port = await freePort();
    const first = await startRun(port);
    expect(first.api).toBe(`http://127.0.0.1:${port}`);
    expect(first.docs).toBe(`${first.api}/docs`);
    expect((await fetch(first.docs)).status).toBe(200);
    const polar = new Polar({ accessToken: first.token, serverURL: first.api });
    const created = await polar.products.create({ name: "Made during the run", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 700 }] });
    const updated = await polar.products.update({ id: created.id, productUpdate: { name: "Renamed during the run" } });
    expect(updated.name).toBe("Renamed during the run");
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.out).toContain("stopped Postgres");

    const second = await startRun(port);
    const again = new Polar({ accessToken: second.token, serverURL: second.api });
    const names = (await again.products.list({ limit: 100 })).result.items.map((p) => p.name);
    expect(names).toContain("Renamed during the run");
    expect(names.filter((n) => n === "Pro (monthly)")).toHaveLength(1);
    expect((await second.stop()).code).toBe(0);
  }, 240_000);
});
