// `make bench`, webhooks: state change → delivered latency and deliveries per second at 100
// endpoints. Starts PostgreSQL, Temporal, the worker and the API in this process, with receivers
// behind 100 endpoints, and times each PATCH → delivery in three phases: start-up (printed, code
// not yet compiled by V8), latency (BENCH_WEBHOOK_UPDATES at BENCH_WEBHOOK_RATE per second, the
// target's measure) and throughput (BENCH_WEBHOOK_BURST back to back). Prints a Markdown table.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { mintOrganizationToken } from "../server/organization-access-tokens/service.js";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { startApi } from "../server/main.js";
import { startPostgres, startTemporal } from "../scripts/services.js";
import { startWorker, type WorkerTuning } from "../workflows/worker.js";
import { createOrganization } from "../test/harness/factories.js";
import { NO_RATE_LIMITS } from "../server/kit/rate-limits.js";
import { sleep } from "../server/kit/time.js";

const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 100);
const UPDATES = Number(process.env.BENCH_WEBHOOK_UPDATES ?? 20);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 2);
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 40);

/** Worker tuning for experiments (BENCH_WEBHOOK_WFT, _WFT_POLLS, _CACHE); the SDK's defaults unless set. */
function benchTuning(): WorkerTuning {
  const n = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const tuning: WorkerTuning = {
    maxConcurrentWorkflowTaskExecutions: n("BENCH_WEBHOOK_WFT"),
    maxConcurrentWorkflowTaskPolls: n("BENCH_WEBHOOK_WFT_POLLS"),
    maxCachedWorkflows: n("BENCH_WEBHOOK_CACHE"),
  };
  return Object.fromEntries(Object.entries(tuning).filter(([, v]) => v !== undefined));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export interface WebhookBenchResult {
  p50: number;
  p99: number;
  /** Delivered per second in the burst phase. */
  perSecond: number;
  lost: number;
}

interface Phase {
  /** PATCH send time per update number. */
  sent: Map<number, number>;
  latencies: number[];
  /** The update number of each latency. */
  updateOf: number[];
  firstSent: number;
  lastReceived: number;
}

export async function runWebhookBench(): Promise<WebhookBenchResult> {
  process.env.WEBHOOKS_ALLOW_HTTP = "1";
  process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
  const pg = await startPostgres({ dataDir: `.data/bench-wh-pg-${process.pid}`, persistent: false });
  const temporal = await startTemporal();
  // The API's webhook waker (redeliveries) reads it; put back afterwards, so a later section starts its own Temporal.
  const previousTemporalAddress = process.env.TEMPORAL_ADDRESS;
  process.env.TEMPORAL_ADDRESS = temporal.address;
  const knex = createKnex(pg.url, { pool: { min: 2, max: 30 } });
  const phases = new Map<string, Phase>();
  const receive = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = performance.now();
      const { n, phase } = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { metadata: { n: number; phase: string } } }).data
        .metadata;
      const p = phases.get(phase);
      if (p) {
        p.latencies.push(now - p.sent.get(n)!);
        p.updateOf.push(n);
        p.lastReceived = now;
      }
      res.writeHead(200).end("ok");
    });
  };
  // The measured organization's receiver, and the start-up phase's (no connection shared).
  const receiver = createServer(receive);
  const startUpReceiver = createServer(receive);
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    await migrateLatest(knex);
    const urlOf = async (server: typeof receiver) => {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const receiverUrl = await urlOf(receiver);
    const startUpReceiverUrl = await urlOf(startUpReceiver);
    worker = await startWorker({ knex, temporalAddress: temporal.address, tuning: benchTuning() });
    api = await startApi({ knex, port: 0, temporalAddress: temporal.address, rateLimits: NO_RATE_LIMITS });

    /** An organization with one product and ENDPOINTS endpoints at `url`; its PATCH of that product. */
    const setUp = async (name: string, slug: string, url: string) => {
      const org = await createOrganization(knex, { name, slug: `${slug}-${Date.now()}` });
      const headers = { authorization: `Bearer ${await mintOrganizationToken(knex, org.id)}`, "content-type": "application/json" };
      const [product] = await knex("products")
        .insert({ organization_id: org.id, name: "Bench product", metadata: JSON.stringify({ n: -1 }) })
        .returning("id");
      await knex("product_prices").insert({ product_id: product.id, amount_type: "fixed", price_currency: "usd", price_amount: 100 });
      for (let i = 0; i < ENDPOINTS; i++) {
        const res = await fetch(`${api!.url}/v1/webhooks/endpoints`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url: `${url}/ep/${i}`, format: "raw", events: ["product.updated"] }),
        });
        if (res.status !== 201) throw new Error(`endpoint create answered ${res.status}: ${await res.text()}`);
      }
      return (body: unknown) =>
        fetch(`${api!.url}/v1/products/${product.id}`, { method: "PATCH", headers, body: JSON.stringify(body) }).then(async (res) => {
          if (res.status !== 200) throw new Error(`product update answered ${res.status}: ${await res.text()}`);
        });
    };
    const patchStartUp = await setUp("Bench Webhooks Start-up Org", "bench-wh-start-up", startUpReceiverUrl);
    const patch = await setUp("Bench Webhooks Org", "bench-wh", receiverUrl);

    /** `rate` updates per second, or all at once (one after the other, as fast as the API answers). */
    async function runPhase(name: string, updates: number, rate: number | "burst", send = patch): Promise<Phase & { lost: number }> {
      const p: Phase = { sent: new Map(), latencies: [], updateOf: [], firstSent: performance.now(), lastReceived: 0 };
      phases.set(name, p);
      const patches: Promise<void>[] = [];
      for (let n = 0; n < updates; n++) {
        if (rate !== "burst") {
          const wait = p.firstSent + (n * 1000) / rate - performance.now();
          if (wait > 0) await sleep(wait);
        }
        p.sent.set(n, performance.now());
        const sending = send({ metadata: { n, phase: name } });
        // A burst still sends in order: the product row is locked per update anyway.
        if (rate === "burst") await sending;
        else patches.push(sending);
      }
      await Promise.all(patches);
      const expected = updates * ENDPOINTS;
      const deadline = Date.now() + 300_000;
      while (p.latencies.length < expected && Date.now() < deadline) await sleep(50);
      return { ...p, lost: expected - p.latencies.length };
    }

    console.log(`webhooks: start-up phase, ${UPDATES} product updates at ${RATE}/s, ${ENDPOINTS} endpoints of another organization…`);
    const startUp = await runPhase("start-up", UPDATES, RATE, patchStartUp);
    console.log(`webhooks: latency phase, ${UPDATES} product updates at ${RATE}/s, ${ENDPOINTS} endpoints…`);
    const steady = await runPhase("latency", UPDATES, RATE);
    console.log(`webhooks: throughput phase, ${BURST} product updates back to back…`);
    const burst = await runPhase("burst", BURST, "burst");

    const sorted = [...steady.latencies].sort((a, b) => a - b);
    const p50 = pct(sorted, 50);
    const p99 = pct(sorted, 99);
    const burstSorted = [...burst.latencies].sort((a, b) => a - b);
    const burstSeconds = (burst.lastReceived - burst.firstSent) / 1000;
    const offered = (BURST * ENDPOINTS) / ((Math.max(...burst.sent.values()) - burst.firstSent) / 1000);
    const perSecond = burst.latencies.length / burstSeconds;
    const lost = startUp.lost + steady.lost + burst.lost;
    console.log(
      `\n${ENDPOINTS} endpoints; latency: ${UPDATES} updates at ${RATE}/s (${UPDATES * ENDPOINTS} deliveries); throughput: ${BURST} updates back to back (${BURST * ENDPOINTS} deliveries); node ${process.version}\n`,
    );
    console.log("| measure | value | target |");
    console.log("|---|---:|---|");
    console.log(`| state change → delivered p50, steady ${RATE * ENDPOINTS}/s | ${p50.toFixed(0)} ms | |`);
    console.log(
      `| state change → delivered p99, steady ${RATE * ENDPOINTS}/s | ${p99.toFixed(0)} ms | ≤ 250 ms (${p99 <= 250 ? "met" : "missed"}) |`,
    );
    // The steady phase update by update: where its tail comes from.
    const perUpdate: number[][] = Array.from({ length: UPDATES }, () => []);
    steady.latencies.forEach((l, i) => perUpdate[steady.updateOf[i]].push(l));
    for (const l of perUpdate) l.sort((a, b) => a - b);
    // Not the target's measure (that is every delivery above): the same over the phase's second
    // half, once its endpoints' first runs have started.
    const warm = perUpdate
      .slice(Math.ceil(UPDATES / 2))
      .flat()
      .sort((a, b) => a - b);
    console.log(`| steady, second half of the updates: p50 / p99 | ${pct(warm, 50).toFixed(0)} / ${pct(warm, 99).toFixed(0)} ms | |`);
    console.log(
      `| steady, update by update: p50 / max | ${perUpdate.map((l) => (l.length ? `${pct(l, 50).toFixed(0)}/${l[l.length - 1].toFixed(0)}` : "-")).join(", ")} ms | |`,
    );
    const startUpSorted = [...startUp.latencies].sort((a, b) => a - b);
    console.log(
      `| start-up phase (another organization, right after the worker starts): p50 / p99 | ${pct(startUpSorted, 50).toFixed(0)} / ${pct(startUpSorted, 99).toFixed(0)} ms | |`,
    );
    console.log(`| burst: offered | ${offered.toFixed(0)} deliveries/s | |`);
    console.log(`| burst: delivered per second | ${perSecond.toFixed(0)} | ≥ 500 (${perSecond >= 500 ? "met" : "missed"}) |`);
    console.log(
      `| burst: last delivery after | ${burstSeconds.toFixed(1)} s (p50 ${pct(burstSorted, 50).toFixed(0)} ms, p99 ${pct(burstSorted, 99).toFixed(0)} ms) | |`,
    );
    console.log(`| deliveries missing after 300 s | ${lost} | 0 |`);
    // Where the time goes, from the database's own timestamps (one clock): the PATCH's transaction
    // start → the relay's claim (outbox created_at → published_at), then the claim → the
    // delivery recorded after the receiver answered (wake-up signal, the endpoint's workflow
    // task, its run of first attempts, the HTTP exchange).
    const { rows: stages } = await knex.raw<{
      rows: { phase: string; claim_p50: number; claim_p99: number; deliver_p50: number; deliver_p99: number }[];
    }>(
      `select o.payload->'data'->'metadata'->>'phase' as phase,
              percentile_cont(0.5) within group (order by extract(epoch from o.published_at - o.created_at) * 1000) as claim_p50,
              percentile_cont(0.99) within group (order by extract(epoch from o.published_at - o.created_at) * 1000) as claim_p99,
              percentile_cont(0.5) within group (order by extract(epoch from d.created_at - o.published_at) * 1000) as deliver_p50,
              percentile_cont(0.99) within group (order by extract(epoch from d.created_at - o.published_at) * 1000) as deliver_p99
         from outbox o
         join webhook_events e on e.outbox_id = o.id
         join webhook_deliveries d on d.webhook_event_id = e.id and d.succeeded
        where o.type = 'product.updated'
        group by 1 order by 1 desc`,
    );
    for (const r of stages) {
      console.log(`| ${r.phase}: commit → relay claim p50 / p99 | ${r.claim_p50.toFixed(0)} / ${r.claim_p99.toFixed(0)} ms | |`);
      console.log(`| ${r.phase}: relay claim → delivered p50 / p99 | ${r.deliver_p50.toFixed(0)} / ${r.deliver_p99.toFixed(0)} ms | |`);
    }
    if (lost > 0) process.exitCode = 1;
    return { p50, p99, perSecond, lost };
  } finally {
    await api?.close();
    await worker?.shutdown();
    await new Promise<void>((r) => receiver.close(() => r()));
    await new Promise<void>((r) => startUpReceiver.close(() => r()));
    await knex.destroy();
    await temporal.stop();
    await pg.stop();
    if (previousTemporalAddress === undefined) delete process.env.TEMPORAL_ADDRESS;
    else process.env.TEMPORAL_ADDRESS = previousTemporalAddress;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runWebhookBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
