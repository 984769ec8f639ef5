// `make fuzz`: schemathesis (checks in schemathesis.toml) against a throwaway stack for every
// operation of generated/openapi.json, with the demo organization's token and a customer session's
// (FUZZ_ORG_TOKEN / FUZZ_CUSTOMER_TOKEN). Exits non-zero if any operation failed; results go to
// .cache/test-results/fuzz.json and a JUnit report. Settings: FUZZ_MAX_EXAMPLES, FUZZ_SEED,
// FUZZ_WORKERS, FUZZ_TIMEOUT_SECONDS, FUZZ_ARGS, FUZZ_OPERATIONS (comma-separated ids).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Knex } from "knex";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { startApi } from "../server/main.js";
import { seedDemo } from "../server/seed.js";
import type { OrganizationCaller } from "../server/kit/auth.js";
import { createCustomer } from "../server/customers/service.js";
import { attributeExternalEvents } from "../server/meters/rollups.js";
import { createOwnerMember } from "../server/members/service.js";
import { createCustomerSession } from "../server/customer-sessions/service.js";
import { startWorker } from "../workflows/worker.js";
import { DATA_DIR, ROOT, freePort, startPostgres, startTemporal, type PostgresHandle, type TemporalHandle } from "./services.js";
import { NO_RATE_LIMITS } from "../server/kit/rate-limits.js";

const SPEC = path.join(ROOT, "generated", "openapi.json");
const SCHEMATHESIS = path.join(ROOT, ".venv", "bin", "schemathesis");
const RESULTS_DIR = path.join(ROOT, ".cache", "test-results");
const JUNIT = path.join(RESULTS_DIR, "fuzz-junit.xml");
const SUMMARY = path.join(RESULTS_DIR, "fuzz.json");

export interface FuzzSummary {
  passed: number;
  failed: number;
  skipped: number;
  failedOperations: string[];
  exitCode: number;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** operationId -> "METHOD /path" for every operation of the contract. */
function specOperations(spec: { paths?: Record<string, Record<string, { operationId?: string }>> }): Map<string, string> {
  const ops = new Map<string, string>();
  for (const [p, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (HTTP_METHODS.has(method) && op?.operationId) ops.set(op.operationId, `${method.toUpperCase()} ${p}`);
    }
  }
  return ops;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Per-operation outcome from schemathesis' JUnit report: one <testcase> per operation. */
function parseJunit(file: string): Omit<FuzzSummary, "exitCode"> | undefined {
  if (!existsSync(file)) return undefined;
  const xml = readFileSync(file, "utf8");
  const summary = { passed: 0, failed: 0, skipped: 0, failedOperations: [] as string[] };
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const name = decodeXml(/\bname="([^"]*)"/.exec(m[1])?.[1] ?? "?");
    const body = m[3] ?? "";
    if (/<(failure|error)\b/.test(body)) {
      summary.failed += 1;
      summary.failedOperations.push(name);
    } else if (/<skipped\b/.test(body)) summary.skipped += 1;
    else summary.passed += 1;
  }
  return summary;
}

async function main(): Promise<number> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  rmSync(JUNIT, { force: true });
  writeFileSync(SUMMARY, JSON.stringify({ passed: 0, failed: 1, skipped: 0, failedOperations: ["(fuzz did not finish)"], exitCode: 1 }));
  if (!existsSync(SPEC)) throw new Error(`${path.relative(ROOT, SPEC)} is missing: run make generate`);
  if (!existsSync(SCHEMATHESIS)) throw new Error(`${path.relative(ROOT, SCHEMATHESIS)} is missing: run make install`);

  const all = specOperations(JSON.parse(readFileSync(SPEC, "utf8")));
  const only = process.env.FUZZ_OPERATIONS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const built = [...all.keys()].filter((id) => !only || only.includes(id));
  const unknown = (only ?? []).filter((id) => !all.has(id));
  if (unknown.length) console.warn(`fuzz: FUZZ_OPERATIONS names ids that are not in the spec: ${unknown.join(", ")}`);
  console.log(`fuzz: ${built.length} of ${all.size} operations will be fuzzed`);
  if (built.length === 0) {
    writeFileSync(SUMMARY, JSON.stringify({ passed: 0, failed: 0, skipped: 0, failedOperations: [], exitCode: 0 }));
    return 0;
  }

  let db: PostgresHandle | undefined;
  let temporal: TemporalHandle | undefined;
  let knex: Knex | undefined;
  let worker: { shutdown(): Promise<void> } | undefined;
  let api: { url: string; close(): Promise<void> } | undefined;
  try {
    [db, temporal] = await Promise.all([
      startPostgres({ dataDir: path.join(DATA_DIR, `fuzz-pg-${process.pid}`), persistent: false }),
      startTemporal(),
    ]);
    knex = createKnex(db.url);
    await migrateLatest(knex);
    const { token, organization } = await seedDemo(knex);
    // Portal operations authenticate a customer: a customer of the demo organization and a session.
    const caller: OrganizationCaller = { kind: "organization", organizationId: organization.id, tokenId: "fuzz", scopes: new Set() };
    const customer = await createCustomer(
      knex,
      caller,
      { email: `fuzz-${Date.now()}@example.com`, name: "Fuzz Buyer" },
      { attributeExternalEvents, createOwnerMember },
    );
    const session = await createCustomerSession(knex, caller, { customer_id: customer.id });
    worker = await startWorker({ knex, temporalAddress: temporal.address });
    api = await startApi({ knex, port: await freePort(), temporalAddress: temporal.address, rateLimits: NO_RATE_LIMITS });

    const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? "20";
    const seed = process.env.FUZZ_SEED === "random" ? String(Math.floor(Math.random() * 2 ** 31)) : (process.env.FUZZ_SEED ?? "1");
    // Exclusion by regex keeps the command line short; `only` narrows it further.
    const excluded = [...all.keys()].filter((id) => !built.includes(id));
    // The project's schemathesis.toml, passed explicitly: schemathesis runs in .cache/fuzz.
    const config = path.join(ROOT, "schemathesis.toml");
    const args = [
      ...(existsSync(config) ? ["--config-file", config] : []),
      "run",
      SPEC,
      "--url",
      api.url,
      // Every check runs: schemathesis.toml enables them all ([checks] enabled = true) rather than
      // `--checks all` here, which would override its per-operation exceptions.
      ...(existsSync(config) ? [] : ["--checks", "all"]),
      "--max-examples",
      maxExamples,
      "--seed",
      seed,
      "--workers",
      process.env.FUZZ_WORKERS ?? "2",
      "--request-timeout",
      "20",
      "--generation-database",
      "none",
      "--report",
      "junit",
      "--report-junit-path",
      JUNIT,
      "--no-color",
      ...(excluded.length ? ["--exclude-operation-id-regex", `^(${excluded.map(escapeRegex).join("|")})$`] : []),
      ...(process.env.FUZZ_ARGS?.split(" ").filter(Boolean) ?? []),
    ];
    console.log(
      `fuzz: schemathesis ${args.map((a) => (a.startsWith("Authorization") ? "Authorization: Bearer ***" : a.length > 120 ? `${a.slice(0, 117)}...` : a)).join(" ")}`,
    );

    const timeoutS = Number(process.env.FUZZ_TIMEOUT_SECONDS ?? 900);
    const exitCode = await new Promise<number>((resolve) => {
      // Its working dir collects Hypothesis' and schemathesis' own caches (.hypothesis/, .schemathesis/).
      const cwd = path.join(ROOT, ".cache", "fuzz");
      mkdirSync(cwd, { recursive: true });
      // The tokens reach schemathesis.toml's headers: the organization's for merchant calls, the
      // customer session's for the portal.
      const env = { ...process.env, FUZZ_ORG_TOKEN: token, FUZZ_CUSTOMER_TOKEN: session.token };
      const child = spawn(SCHEMATHESIS, args, { stdio: ["ignore", "inherit", "inherit"], cwd, env });
      const timer = setTimeout(() => {
        console.error(`fuzz: schemathesis still running after ${timeoutS}s; stopping it`);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }, timeoutS * 1000);
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        resolve(code ?? (signal ? 1 : 0));
      });
      child.on("error", (err) => {
        clearTimeout(timer);
        console.error(`fuzz: could not run schemathesis: ${err.message}`);
        resolve(1);
      });
    });

    const parsed = parseJunit(JUNIT) ?? { passed: 0, failed: 0, skipped: 0, failedOperations: [] };
    const byRoute = new Map([...all].map(([id, route]) => [route, id]));
    parsed.failedOperations = parsed.failedOperations.map((route) => (byRoute.has(route) ? `${byRoute.get(route)} (${route})` : route));
    if (exitCode !== 0 && parsed.failed === 0) {
      parsed.failed = 1;
      parsed.failedOperations.push(`(schemathesis exited ${exitCode})`);
    }
    const summary: FuzzSummary = { ...parsed, exitCode };
    writeFileSync(SUMMARY, JSON.stringify(summary, null, 2) + "\n");
    console.log(
      `fuzz: ${summary.passed} operations passed, ${summary.failed} failed, ${summary.skipped} skipped (seed ${seed}, ${maxExamples} examples each)` +
        (summary.failedOperations.length ? `\nfuzz: failed: ${summary.failedOperations.join(", ")}` : ""),
    );
    return summary.failed > 0 || exitCode !== 0 ? 1 : 0;
  } finally {
    await api?.close().catch((err) => console.error("fuzz: stopping the API:", err));
    await worker?.shutdown().catch((err) => console.error("fuzz: stopping the worker:", err));
    await knex?.destroy().catch(() => {});
    await temporal?.stop().catch((err) => console.error("fuzz: stopping Temporal:", err));
    await db?.stop().catch((err) => console.error("fuzz: stopping Postgres:", err));
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`fuzz failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
