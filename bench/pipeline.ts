// `make bench-pipeline`: issue 33's candidate request pipelines (Express 5 with generated routes,
// Fastify 5) against bare node:http + pg, on GET one product and a meter create, each server a
// child process (bench/pipeline-server.ts) over one throwaway PostgreSQL with 10,000 products.
// autocannon at 32 connections, the servers in turn, round after round; prints req/s, each
// round's ratio to node+pg and the CPU per request as a Markdown table (docs/BENCHMARKS.md).
import type { spawn } from "node:child_process";
import autocannon from "autocannon";
import { schemaValidator } from "../generated/validators.js";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { startPostgres } from "../scripts/services.js";
import { createOrganization } from "../test/harness/factories.js";
import { cpuTime, spawnJson, stop } from "./processes.js";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
// Many short rounds: on the shared machine other work comes and goes within seconds, and the
// median of many same-round ratios follows it better than two long runs do.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 32;

const SERVERS = [
  { kind: "express", name: "(a) Express 5, one router" },
  { kind: "express-prefixed", name: "(a) Express 5, a router per prefix" },
  { kind: "fastify", name: "(b) Fastify 5" },
  { kind: "node-pg", name: "node:http + pg" },
] as const;

const JSON_HEADERS = { "content-type": "application/json" };
const loadOptions = (route: Route): Partial<autocannon.Options> =>
  route.body === undefined ? {} : { method: "POST", headers: JSON_HEADERS, body: route.body };

const METER_BODY = JSON.stringify({
  name: "Bench meter",
  filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
  aggregation: { func: "count" },
  metadata: { source: "bench" },
});

interface Route {
  name: string;
  path: string;
  /** A JSON body: the route is a POST. */
  body?: string;
  status: number;
  /** The contract schema the frameworks' answers must satisfy. */
  schema: string;
}

/** One load of one server: req/s, and the CPU that server spent (µs) on the requests it answered. */
interface Run {
  rps: number;
  requests: number;
  cpuUs?: number;
  errors: number;
}

async function load(url: string, options: Partial<autocannon.Options>, pid: number | undefined, seconds = SECONDS): Promise<Run> {
  const before = cpuTime(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  const after = cpuTime(pid);
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    cpuUs: before !== undefined && after !== undefined ? after - before : undefined,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

/** One request to each server: the status, the frameworks' bodies valid by the contract and alike. */
async function probe(route: Route, bases: string[]) {
  const bodies: string[] = [];
  for (const [i, base] of bases.entries()) {
    const init = route.body === undefined ? {} : { method: "POST", headers: JSON_HEADERS, body: route.body };
    const res = await fetch(`${base}${route.path}`, init);
    const text = await res.text();
    if (res.status !== route.status) throw new Error(`${SERVERS[i].kind} ${route.name}: answered ${res.status}: ${text}`);
    if (SERVERS[i].kind === "node-pg") continue;
    const validate = schemaValidator(route.schema);
    if (!validate(JSON.parse(text)))
      throw new Error(`${SERVERS[i].kind} ${route.name}: not a ${route.schema}: ${JSON.stringify(validate.errors)}`);
    bodies.push(text.replace(/"(id|created_at)":"[^"]*"/g, ""));
  }
  if (bodies.some((b) => b !== bodies[0])) throw new Error(`${route.name}: the frameworks answer differently:\n${bodies.join("\n")}`);
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const pg = await startPostgres({ dataDir: `.data/bench-pipeline-pg-${process.pid}`, persistent: false });
  const knex = createKnex(pg.url);
  const children: ReturnType<typeof spawn>[] = [];
  try {
    await migrateLatest(knex);
    const org = await createOrganization(knex, { name: "Bench Org", slug: `bench-${Date.now()}` });
    console.log(`seeding ${PRODUCTS} products…`);
    await knex.raw(
      `insert into products (organization_id, name, description, recurring_interval, metadata)
       select ?, 'Product ' || n, 'Seeded for the benchmark', case when n % 2 = 1 then 'month' end, jsonb_build_object('n', n)
       from generate_series(0, ? - 1) n`,
      [org.id, PRODUCTS],
    );
    await knex.raw(
      `insert into product_prices (product_id, amount_type, price_currency, price_amount)
       select id, 'fixed', 'usd', 100 + row_number() over (order by created_at) from products where organization_id = ?`,
      [org.id],
    );
    await knex.raw("analyze");
    const middle = { organization_id: org.id, name: `Product ${PRODUCTS >> 1}` };
    const someId: string = (await knex("products").where(middle).first("id")).id;

    const bases: string[] = [];
    for (const { kind } of SERVERS) {
      const server = await spawnJson<{ url: string }>("bench/pipeline-server.ts", {
        DATABASE_URL: pg.url,
        BENCH_ORGANIZATION_ID: org.id,
        BENCH_PIPELINE: kind,
      });
      children.push(server.child);
      bases.push(server.info.url);
    }
    const routes: Route[] = [
      { name: "GET /v1/products/{id}", path: `/v1/products/${someId}`, status: 200, schema: "Product" },
      {
        name: "POST /v1/meters/ (create)",
        path: "/v1/meters/",
        body: METER_BODY,
        status: 201,
        schema: "Meter",
      },
    ];
    for (const route of routes) await probe(route, bases);

    console.log("warming up…");
    for (const route of routes) {
      for (const [i, base] of bases.entries()) await load(`${base}${route.path}`, loadOptions(route), children[i].pid, 2);
    }
    /** runs[route][server][round] */
    const runs: Run[][][] = routes.map(() => SERVERS.map(() => []));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [r, route] of routes.entries()) {
        for (const [s, base] of bases.entries()) {
          runs[r][s].push(await load(`${base}${route.path}`, loadOptions(route), children[s].pid));
        }
      }
    }

    const baseline = SERVERS.length - 1;
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds of the servers in turn, node ${process.version}\n`);
    console.log("| route | server | req/s by round | ratio to node+pg by round | median ratio | CPU µs/req | CPU ratio |");
    console.log("|---|---|---:|---:|---:|---:|---:|");
    for (const [r, route] of routes.entries()) {
      const cpuPerRequest = (s: number) => {
        const cpu = runs[r][s].reduce((sum, run) => sum + (run.cpuUs ?? NaN), 0);
        return cpu / runs[r][s].reduce((sum, run) => sum + run.requests, 0);
      };
      for (const [s, server] of SERVERS.entries()) {
        const ratios = runs[r][s].map((run, round) => run.rps / runs[r][baseline][round].rps);
        const cpu = cpuPerRequest(s);
        console.log(
          `| ${route.name} | ${server.name} | ${runs[r][s].map((run) => run.rps.toFixed(0)).join(" / ")} | ${ratios.map((x) => x.toFixed(2)).join(" / ")} | ${median(ratios).toFixed(2)} | ${cpu.toFixed(0)} | ${(cpuPerRequest(baseline) / cpu).toFixed(2)} |`,
        );
      }
    }
    if (runs.flat(2).some((run) => run.errors > 0)) {
      console.error("some requests failed (errors, timeouts or non-2xx answers)");
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) await stop(child);
    await knex.destroy();
    await pg.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
