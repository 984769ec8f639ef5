// `make bench`, usage (`tsx bench/usage.ts` alone; BENCH_USAGE=0 skips it): on one throwaway
// PostgreSQL against the API in a child process, three ratios: ingestion vs a bare COPY (≥ 50 %),
// a month of a meter's daily quantities vs hand-written SQL and at SCALE × N events vs N (≤ 2×,
// ≤ 1.5×), and a metered renewal with 10,000 events vs none (≤ 1.2×). BENCH_USAGE_* set the sizes
// (the constants below; small ones give a quick look). docs/BENCHMARKS.md.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import type { Knex } from "knex";
import { from as copyFrom } from "pg-copy-streams";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { mintOrganizationToken } from "../server/organization-access-tokens/service.js";
import type { MeterRow } from "../server/meters/models.js";
import { foldUsage } from "../server/meters/fold.js";
import { rebuildMeter } from "../server/meters/rollups.js";
import { getProcessor, setProcessor } from "../server/processors/index.js";
import { SandboxProcessor } from "../server/processors/sandbox.js";
import { runStep } from "../server/subscriptions/billing.js";
import { startPostgres } from "../scripts/services.js";
import { createOrganization } from "../test/harness/factories.js";
import { subscribeEveryCustomer } from "./subscriptions.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const INGEST_EVENTS = env("BENCH_USAGE_INGEST_EVENTS", 200_000);
const CONNECTIONS = env("BENCH_USAGE_CONNECTIONS", 2);
const EVENTS = env("BENCH_USAGE_EVENTS", 1_000_000);
const SCALE = env("BENCH_USAGE_SCALE", 10);
const DAYS = env("BENCH_USAGE_DAYS", 100);
const QUERIES = env("BENCH_USAGE_QUERIES", 100);
const RENEWALS = env("BENCH_USAGE_RENEWALS", 100);
const PER_CUSTOMER = env("BENCH_USAGE_EVENTS_PER_CUSTOMER", 10_000);
const BATCH = 1000;
const CUSTOMERS = 1000;
const DAY = 86_400_000;

interface EventRow {
  organization_id: string;
  timestamp: Date;
  name: string;
  customer_id: string | null;
  external_customer_id: string | null;
  metadata: Record<string, unknown>;
}

const ms = (t: number) => `${t.toFixed(1)} ms`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** COPY text format: tab-separated, `\N` for null, backslash and control characters escaped. */
const copyField = (v: string | null) =>
  v === null ? "\\N" : v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
const copyLine = (e: EventRow) =>
  [e.organization_id, e.timestamp.toISOString(), e.name, "user", e.customer_id, e.external_customer_id, JSON.stringify(e.metadata)]
    .map(copyField)
    .join("\t") + "\n";

type PgConnection = { query: (q: unknown) => NodeJS.WritableStream };
type Pool = { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };

/** A bare COPY of the rows into the events table, on one connection of the pool. */
async function copyEvents(knex: Knex, rows: Iterable<EventRow>): Promise<void> {
  const pool = knex.client as Pool;
  const conn = await pool.acquireConnection();
  try {
    const sink = conn.query(
      copyFrom("COPY events (organization_id, timestamp, name, source, customer_id, external_customer_id, metadata) FROM STDIN"),
    );
    await pipeline(
      Readable.from(
        (function* () {
          let chunk = "";
          for (const r of rows) {
            chunk += copyLine(r);
            if (chunk.length > 1 << 16) {
              yield chunk;
              chunk = "";
            }
          }
          if (chunk) yield chunk;
        })(),
      ),
      sink,
    );
  } finally {
    await pool.releaseConnection(conn);
  }
}

async function startApiProcess(databaseUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/server.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return {
    url: (JSON.parse(line) as { api: string }).api,
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

async function customers(knex: Knex, organizationId: string, n: number, prefix: string): Promise<{ id: string; external_id: string }[]> {
  await knex.raw(
    `insert into customers (organization_id, email, name, external_id)
     select ?, ? || n || '@example.com', 'Bench ' || n, ? || n from generate_series(1, ?) n`,
    [organizationId, `${prefix}-`, `${prefix}-`, n],
  );
  return knex("customers").where({ organization_id: organizationId }).orderBy("external_id").select("id", "external_id");
}

interface Row {
  measure: string;
  value: string;
  baseline: string;
  ratio: number;
  target: string;
  met: boolean;
}

async function ingestBench(knex: Knex, api: string): Promise<Row> {
  const copyOrg = await createOrganization(knex, { name: "Bench ingest COPY" });
  const apiOrg = await createOrganization(knex, { name: "Bench ingest API" });
  const token = await mintOrganizationToken(knex, apiOrg.id);
  const copyCustomers = await customers(knex, copyOrg.id, CUSTOMERS, "copy");
  const apiCustomers = await customers(knex, apiOrg.id, CUSTOMERS, "api");
  for (const m of [
    {
      name: "Calls",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "count" },
    },
    {
      name: "Tokens",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
      aggregation: { func: "sum", property: "tokens" },
    },
  ]) {
    const res = await fetch(`${api}/v1/meters/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(m),
    });
    if (res.status !== 201) throw new Error(`meter create answered ${res.status}`);
  }
  const now = Date.now();
  const event = (i: number, org: string, cs: { id: string; external_id: string }[]): EventRow => {
    const c = cs[i % cs.length];
    return {
      organization_id: org,
      timestamp: new Date(now - (i % (7 * 24 * 60)) * 60_000),
      name: i % 10 === 9 ? "page_view" : "api_call",
      customer_id: c.id,
      external_customer_id: c.external_id,
      metadata: { tokens: i % 997, model: `model-${i % 5}` },
    };
  };
  const batches = Math.max(1, Math.floor(INGEST_EVENTS / BATCH));
  const rounds = 4;
  let copyMs = 0;
  let apiMs = 0;
  let copyRows = 0;
  let apiRows = 0;
  let next = 0;
  const body = (b: number) =>
    JSON.stringify({
      events: Array.from({ length: BATCH }, (_, k) => {
        const e = event(b * BATCH + k, apiOrg.id, apiCustomers);
        return { name: e.name, external_customer_id: e.external_customer_id, timestamp: e.timestamp.toISOString(), metadata: e.metadata };
      }),
    });
  for (let r = 0; r < rounds; r++) {
    const share = Array.from({ length: Math.ceil(batches / rounds) }, () => next++).filter((b) => b < batches);
    // Bare COPY: the same number of rows, in batches of 1,000, on the same number of connections.
    let t = performance.now();
    let queue = [...share];
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
          await copyEvents(
            knex,
            Array.from({ length: BATCH }, (_, k) => event(b * BATCH + k, copyOrg.id, copyCustomers)),
          );
          copyRows += BATCH;
        }
      }),
    );
    copyMs += performance.now() - t;
    // The API: JSON bodies prepared beforehand (the client's cost is not the server's).
    const bodies = new Map(share.map((b) => [b, body(b)]));
    t = performance.now();
    queue = [...share];
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
          const res = await fetch(`${api}/v1/events/ingest`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: bodies.get(b)!,
          });
          const json = (await res.json()) as { inserted?: number };
          if (res.status !== 200 || json.inserted !== BATCH)
            throw new Error(`ingest answered ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
          apiRows += BATCH;
        }
      }),
    );
    apiMs += performance.now() - t;
  }
  const copyRate = copyRows / (copyMs / 1000);
  const apiRate = apiRows / (apiMs / 1000);
  // Everything the API took is in the rollups.
  const counted = await knex("meter_rollups as r")
    .join("meters as m", "m.id", "r.meter_id")
    .where({ "m.organization_id": apiOrg.id, "m.name": "Calls", "r.customer_key": "" })
    .sum({ n: "r.events" })
    .first();
  const expected = await knex("events").where({ organization_id: apiOrg.id, name: "api_call" }).count({ n: "*" }).first();
  if (Number(counted?.n) !== Number(expected?.n)) throw new Error(`rollups count ${counted?.n} events, the table has ${expected?.n}`);
  const ratio = apiRate / copyRate;
  return {
    measure: `ingest ${apiRows.toLocaleString("en")} events, batches of ${BATCH}, ${CONNECTIONS} connections (rows/s)`,
    value: `${apiRate.toFixed(0)} (API, rollups kept)`,
    baseline: `${copyRate.toFixed(0)} (bare COPY)`,
    ratio,
    target: "≥ 50 %",
    met: ratio >= 0.5,
  };
}

/** Loads `n` events of the organization, evenly over `days` days ending at `end` (newest first). */
async function loadHistory(
  knex: Knex,
  organizationId: string,
  cs: { id: string; external_id: string }[],
  n: number,
  end: number,
  days: number,
  offset: number,
) {
  const span = days * DAY;
  const chunk = 200_000;
  for (let start = 0; start < n; start += chunk) {
    const size = Math.min(chunk, n - start);
    await copyEvents(
      knex,
      (function* () {
        for (let k = 0; k < size; k++) {
          const i = start + k;
          const c = cs[(i + offset) % cs.length];
          yield {
            organization_id: organizationId,
            timestamp: new Date(end - Math.floor((i * span) / n) - 1),
            name: (i + offset) % 10 === 9 ? "page_view" : "api_call",
            customer_id: c.id,
            external_customer_id: c.external_id,
            metadata: { tokens: (i + offset) % 997, model: `model-${(i + offset) % 7}` },
          };
        }
      })(),
    );
  }
}

async function timed<T>(times: number, f: () => Promise<T>): Promise<{ p50: number; p99: number; last: T }> {
  const samples: number[] = [];
  let last!: T;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    last = await f();
    samples.push(performance.now() - t);
  }
  return { p50: pct(samples, 50), p99: pct(samples, 99), last };
}

async function quantitiesBench(knex: Knex, api: string): Promise<Row[]> {
  const org = await createOrganization(knex, { name: "Bench quantities" });
  const token = await mintOrganizationToken(knex, org.id);
  const cs = await customers(knex, org.id, CUSTOMERS, "q");
  const end = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const monthStart = new Date(end - 30 * DAY);
  const monthEnd = new Date(end - DAY);
  let t = performance.now();
  await loadHistory(knex, org.id, cs, EVENTS, end, DAYS, 0);
  await foldUsage(knex);
  await knex.raw("vacuum analyze events");
  console.log(`usage: ${EVENTS.toLocaleString("en")} events loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const meters: Record<string, string> = {};
  for (const [key, aggregation] of [
    ["count", { func: "count" }],
    ["unique", { func: "unique", property: "model" }],
  ] as const) {
    t = performance.now();
    const res = await fetch(`${api}/v1/meters/`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        name: `Calls ${key}`,
        filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] },
        aggregation,
      }),
    });
    meters[key] = ((await res.json()) as { id: string }).id;
    console.log(`usage: meter (${key}) created over the history in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const qs = `start_timestamp=${monthStart.toISOString()}&end_timestamp=${monthEnd.toISOString()}&interval=day`;
  const viaApi = (meter: string) => async () => {
    const res = await fetch(`${api}/v1/meters/${meter}/quantities?${qs}`, { headers });
    if (res.status !== 200) throw new Error(`quantities answered ${res.status}`);
    return ((await res.json()) as { total: number }).total;
  };
  const monthEndExclusive = new Date(end);
  const handCount = async () =>
    Number(
      (
        await knex.raw(
          `select sum(n) as total from (select date_trunc('day', timestamp, 'UTC') as d, count(*) as n from events
           where organization_id = ? and name = 'api_call' and timestamp >= ? and timestamp < ? group by 1 order by 1) as days`,
          [org.id, monthStart, monthEndExclusive],
        )
      ).rows[0].total,
    );
  const handUnique = async () =>
    (
      await knex.raw(
        `select date_trunc('day', timestamp, 'UTC') as d, count(distinct metadata -> 'model') as n from events
         where organization_id = ? and name = 'api_call' and timestamp >= ? and timestamp < ? group by 1 order by 1`,
        [org.id, monthStart, monthEndExclusive],
      )
    ).rows.length;
  const measure = async (label: string) => {
    await viaApi(meters.count)();
    await handCount();
    const apiCount = await timed(QUERIES, viaApi(meters.count));
    const sqlCount = await timed(QUERIES, handCount);
    if (apiCount.last !== sqlCount.last) throw new Error(`${label}: the API counts ${apiCount.last}, SQL ${sqlCount.last}`);
    const apiUnique = await timed(Math.max(5, QUERIES / 10), viaApi(meters.unique));
    const sqlUnique = await timed(Math.max(5, QUERIES / 10), handUnique);
    return { apiCount, sqlCount, apiUnique, sqlUnique, monthEvents: apiCount.last };
  };
  const small = await measure("N");

  t = performance.now();
  const more = EVENTS * (SCALE - 1);
  await loadHistory(knex, org.id, cs, more, end - DAYS * DAY, DAYS * (SCALE - 1), EVENTS);
  await foldUsage(knex);
  await knex.raw("vacuum analyze events");
  console.log(`usage: ${more.toLocaleString("en")} older events loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  for (const id of Object.values(meters)) {
    t = performance.now();
    await knex.transaction(async (trx) => rebuildMeter(trx, (await trx("meters").where({ id }).first()) as MeterRow));
    console.log(
      `usage: rollups of a meter rebuilt over ${(EVENTS * SCALE).toLocaleString("en")} events in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  await knex.raw("vacuum analyze meter_rollups");
  const large = await measure("SCALE × N");
  const n = EVENTS.toLocaleString("en");
  const big = (EVENTS * SCALE).toLocaleString("en");
  const monthNote = `${small.monthEvents.toLocaleString("en")} events in the month`;
  return [
    {
      measure: `quantities, a month by day (count meter, rollups), ${n} events: API p50 vs hand-written SQL p50 (${monthNote})`,
      value: ms(small.apiCount.p50),
      baseline: ms(small.sqlCount.p50),
      ratio: small.apiCount.p50 / small.sqlCount.p50,
      target: "≤ 2×",
      met: small.apiCount.p50 <= 2 * small.sqlCount.p50,
    },
    {
      measure: `quantities at ${big} vs ${n} events: API p50`,
      value: ms(large.apiCount.p50),
      baseline: ms(small.apiCount.p50),
      ratio: large.apiCount.p50 / small.apiCount.p50,
      target: "≤ 1.5×",
      met: large.apiCount.p50 <= 1.5 * small.apiCount.p50,
    },
    {
      measure: `(for reference) hand-written SQL p50 at ${big} vs ${n}`,
      value: ms(large.sqlCount.p50),
      baseline: ms(small.sqlCount.p50),
      ratio: large.sqlCount.p50 / small.sqlCount.p50,
      target: "—",
      met: true,
    },
    {
      measure: `(for reference) unique meter, read from the events: API p50 vs SQL p50 at ${n} / at ${big}`,
      value: `${ms(small.apiUnique.p50)} / ${ms(large.apiUnique.p50)}`,
      baseline: `${ms(small.sqlUnique.p50)} / ${ms(large.sqlUnique.p50)}`,
      ratio: large.apiUnique.p50 / small.apiUnique.p50,
      target: "—",
      met: true,
    },
  ];
}

async function renewalBench(knex: Knex): Promise<Row> {
  const org = await createOrganization(knex, { name: "Bench renewals" });
  const [meter] = await knex("meters")
    .insert({
      organization_id: org.id,
      name: "Calls",
      filter: JSON.stringify({ conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_call" }] }),
      aggregation: JSON.stringify({ func: "count" }),
    })
    .returning("*");
  const [product] = await knex("products")
    .insert({ organization_id: org.id, name: "Usage plan", recurring_interval: "month" })
    .returning("id");
  const [fixed] = await knex("product_prices")
    .insert({ product_id: product.id, amount_type: "fixed", price_currency: "usd", price_amount: 1000, position: 0 })
    .returning("id");
  const [metered] = await knex("product_prices")
    .insert({
      product_id: product.id,
      amount_type: "metered_unit",
      price_currency: "usd",
      meter_id: meter.id,
      unit_amount: "0.01",
      position: 1,
    })
    .returning("id");
  // A period that starts and ends mid-day, as a checkout at any time anchors it: partial days at both edges.
  const due = Date.UTC(2030, 0, 15, 10, 23, 45);
  const anchor = new Date(Date.UTC(2029, 11, 15, 10, 23, 45));
  const total = 2 * RENEWALS + 10;
  const cs = await customers(knex, org.id, total, "r");
  await subscribeEveryCustomer(knex, {
    organizationId: org.id,
    productId: product.id,
    priceIds: [fixed.id, metered.id],
    amount: 1000,
    anchor,
    due: new Date(due),
  });
  const subs: { id: string; customer_id: string }[] = await knex("subscriptions")
    .where({ organization_id: org.id })
    .select("id", "customer_id");
  const byCustomer = new Map(subs.map((s) => [s.customer_id, s.id]));
  // Groups: 10 to warm up, then "busy" (events in the period) and "idle" (none).
  const warm = cs.slice(0, 10);
  const busy = cs.slice(10, 10 + RENEWALS);
  const idle = cs.slice(10 + RENEWALS);
  const t = performance.now();
  const span = due - anchor.getTime();
  for (let start = 0; start < busy.length; start += 20) {
    const group = busy.slice(start, start + 20);
    await copyEvents(
      knex,
      (function* () {
        for (const c of group) {
          for (let k = 0; k < PER_CUSTOMER; k++) {
            yield {
              organization_id: org.id,
              timestamp: new Date(anchor.getTime() + 1 + Math.floor((k * span) / PER_CUSTOMER)),
              name: "api_call",
              customer_id: c.id,
              external_customer_id: c.external_id,
              metadata: { k },
            };
          }
        }
      })(),
    );
  }
  await knex.transaction((trx) => rebuildMeter(trx, meter as MeterRow));
  // As the worker does within a second of ingestion: the events go into the per-customer rollups.
  await foldUsage(knex);
  await knex.raw("vacuum analyze");
  console.log(
    `usage: ${(busy.length * PER_CUSTOMER).toLocaleString("en")} events of ${busy.length} customers loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const sandbox = new SandboxProcessor();
  const previous = getProcessor();
  setProcessor(sandbox);
  const now = due + 3_600_000;
  const renew = async (customerId: string) => {
    const started = performance.now();
    const { outcome } = await runStep(knex, byCustomer.get(customerId)!, now);
    if (outcome !== "charged") throw new Error(`renewal answered ${outcome}`);
    return performance.now() - started;
  };
  const busyMs: number[] = [];
  const idleMs: number[] = [];
  try {
    for (const c of warm) await renew(c.id);
    for (let i = 0; i < RENEWALS; i++) {
      // Interleaved, and which goes first alternates: drift and caches weigh on both alike.
      if (i % 2 === 0) {
        busyMs.push(await renew(busy[i].id));
        idleMs.push(await renew(idle[i].id));
      } else {
        idleMs.push(await renew(idle[i].id));
        busyMs.push(await renew(busy[i].id));
      }
    }
  } finally {
    setProcessor(previous);
  }
  const billed = await knex("order_items as i")
    .join("orders as o", "o.id", "i.order_id")
    .where({ "o.organization_id": org.id, "o.billing_reason": "subscription_cycle", "i.product_price_id": metered.id })
    .whereIn(
      "o.customer_id",
      busy.map((c) => c.id),
    )
    .pluck("i.amount");
  const want = Math.round(PER_CUSTOMER * 0.01);
  if (billed.length !== busy.length || billed.some((a: number) => Number(a) !== want))
    throw new Error(`busy renewals billed ${billed.slice(0, 5).join(", ")}…, expected ${want} each`);
  const ratio = mean(busyMs) / mean(idleMs);
  return {
    measure: `renewal step with a metered price: ${PER_CUSTOMER.toLocaleString("en")} events in the period vs none (mean of ${RENEWALS} each; p50 ${ms(pct(busyMs, 50))} vs ${ms(pct(idleMs, 50))})`,
    value: ms(mean(busyMs)),
    baseline: ms(mean(idleMs)),
    ratio,
    target: "≤ 1.2×",
    met: ratio <= 1.2,
  };
}

export async function runUsageBench(): Promise<Row[]> {
  const pg = await startPostgres({ dataDir: `.data/bench-usage-pg-${process.pid}`, persistent: false });
  const knex = createKnex(pg.url, { pool: { min: 2, max: 10 } });
  let api: Awaited<ReturnType<typeof startApiProcess>> | undefined;
  try {
    await migrateLatest(knex);
    api = await startApiProcess(pg.url);
    const rows: Row[] = [];
    if (process.env.BENCH_USAGE_PARTS?.includes("ingest") ?? true) rows.push(await ingestBench(knex, api.url));
    if (process.env.BENCH_USAGE_PARTS?.includes("quantities") ?? true) rows.push(...(await quantitiesBench(knex, api.url)));
    if (process.env.BENCH_USAGE_PARTS?.includes("renewal") ?? true) rows.push(await renewalBench(knex));
    console.log(`\nusage, node ${process.version}\n`);
    console.log("| measure | value | baseline (same run) | ratio | target |");
    console.log("|---|---:|---:|---:|---|");
    for (const r of rows) {
      const ratio = r.target.includes("%") ? `${(r.ratio * 100).toFixed(0)} %` : `${r.ratio.toFixed(2)}×`;
      console.log(
        `| ${r.measure} | ${r.value} | ${r.baseline} | ${ratio} | ${r.target}${r.target === "—" ? "" : r.met ? " (met)" : " (missed)"} |`,
      );
    }
    if (rows.some((r) => !r.met)) process.exitCode = 1;
    return rows;
  } finally {
    await api?.stop();
    await knex.destroy();
    await pg.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runUsageBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
