// The short form of `make chaos` (scripts/chaos.ts): two APIs and two workers on one supervised
// PostgreSQL and Temporal; the races first, then 35 s of checkouts, refunds and renewals while an
// API, a worker, Temporal and PostgreSQL are each SIGKILLed at least once; then the books must
// balance and every paid order's receipt reach Mailpit under exactly one Message-ID.
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printReport, runChaos } from "../../scripts/chaos.js";
import { DATA_DIR, ROOT } from "../../scripts/services.js";

const dataDir = path.join(DATA_DIR, `chaos-test-${process.pid}`);

describe("chaos (short form of make chaos)", () => {
  // Its own Temporal, which has only the default namespace (not the vitest worker's).
  const namespace = process.env.TEMPORAL_NAMESPACE;
  beforeAll(() => {
    delete process.env.TEMPORAL_NAMESPACE;
  });
  afterAll(() => {
    if (namespace !== undefined) process.env.TEMPORAL_NAMESPACE = namespace;
    // What the APIs, workers and services logged, kept beside the run's results for a failure's reading.
    const log = path.join(dataDir, "processes.log");
    const results = path.join(ROOT, ".cache", "test-results");
    mkdirSync(results, { recursive: true });
    if (existsSync(log)) copyFileSync(log, path.join(results, "chaos-processes.log"));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps the books under kill -9 of every process, on 2 APIs and 2 workers", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const report = await runChaos({
      durationMs: 35_000,
      killEveryMs: [4_000, 7_000],
      apis: 2,
      workers: 2,
      buyers: 3,
      clocks: 2,
      dataDir,
      seed: 20,
      log,
    });
    printReport(report, log);
    const output = lines.join("\n");
    expect(report.problems, output).toEqual([]);
    const killed = new Set(report.kills.map((k) => k.victim.replace(/-\d+$/, "")));
    expect([...killed].sort(), output).toEqual(["api", "postgres", "temporal", "worker"]);
    for (const k of report.kills) expect(report.restarts[k.victim], output).toBeGreaterThan(0);
    expect(report.counts["race: confirms answered 200 of 16"]).toBe(1);
    expect(report.counts["race: discount redemptions"]).toBe(3);
    expect(report.counts["calm: duplicate deliveries"]).toBe(0);
    expect(report.counts["checkouts succeeded"]).toBeGreaterThan(10);
    expect(report.counts["renewal orders"]).toBeGreaterThan(0);
    // Every paid order's receipt arrived under one Message-ID (checked in the books above).
    expect(report.counts["receipts received (distinct Message-IDs)"]).toBeGreaterThan(10);
  }, 600_000);
});
