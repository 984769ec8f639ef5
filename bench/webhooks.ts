// `make bench`, webhooks: state change → delivered latency and deliveries per second at 100
// endpoints. Starts PostgreSQL, a Temporal dev server, the worker (outbox relay + delivery
// workflows, default settings) and the API in this process, and a receiver on 127.0.0.1 answering
// 200 behind 100 endpoints of one organization subscribed to product.updated. Then PATCHes one
// product BENCH_WEBHOOK_UPDATES times through the API (BENCH_WEBHOOK_RATE per second) and times,
// for every (update, endpoint), from the PATCH being sent (commit happens before its answer, so
// this overstates a little) to the receiver getting the delivery. Prints a Markdown table.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { mintOrganizationToken } from "../server/kit/auth.js";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { startApi } from "../server/main.js";
import { startPostgres, startTemporal } from "../scripts/services.js";
import { startWorker } from "../workflows/worker.js";

const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 100);
const UPDATES = Number(process.env.BENCH_WEBHOOK_UPDATES ?? 20);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 10);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function runWebhookBench(): Promise<{ p50: number; p99: number; perSecond: number; lost: number }> {
  process.env.WEBHOOKS_ALLOW_HTTP = "1";
  process.env.WEBHOOKS_ALLOW_LOOPBACK = "1";
  const pg = await startPostgres({ dataDir: `.data/bench-wh-pg-${process.pid}`, persistent: false });
  const temporal = await startTemporal();
  process.env.TEMPORAL_ADDRESS = temporal.address; // the API's webhook waker (redeliveries)
  const knex = createKnex(pg.url, { pool: { min: 2, max: 30 } });
  const sent = new Map<number, number>();
  const latencies: number[] = [];
  let firstSent = 0;
  let lastReceived = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = performance.now();
      const n = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { metadata: { n: number } } }).data.metadata.n;
      latencies.push(now - sent.get(n)!);
      lastReceived = now;
      res.writeHead(200).end("ok");
    });
  });
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    await migrateLatest(knex);
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    worker = await startWorker({ knex, temporalAddress: temporal.address });
    api = await startApi({ knex, port: 0, temporalAddress: temporal.address });

    const [org] = await knex("organizations")
      .insert({
        name: "Bench Webhooks Org",
        slug: `bench-wh-${Date.now()}`,
        feature_settings: JSON.stringify({ issue_funding_enabled: false }),
        subscription_settings: JSON.stringify({ allow_multiple_subscriptions: false, allow_customer_updates: true, proration_behavior: "prorate" }),
        notification_settings: JSON.stringify({ new_order: true, new_subscription: true }),
      })
      .returning("id");
    const headers = { authorization: `Bearer ${await mintOrganizationToken(knex, org.id)}`, "content-type": "application/json" };
    const [product] = await knex("products").insert({ organization_id: org.id, name: "Bench product", metadata: JSON.stringify({ n: -1 }) }).returning("id");
    await knex("product_prices").insert({ product_id: product.id, amount_type: "fixed", price_currency: "usd", price_amount: 100 });
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await fetch(`${api.url}/v1/webhooks/endpoints`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: `${receiverUrl}/ep/${i}`, format: "raw", events: ["product.updated"] }),
      });
      if (res.status !== 201) throw new Error(`endpoint create answered ${res.status}: ${await res.text()}`);
    }

    console.log(`webhooks: ${UPDATES} product updates at ${RATE}/s, ${ENDPOINTS} endpoints…`);
    firstSent = performance.now();
    const patches: Promise<void>[] = [];
    for (let n = 0; n < UPDATES; n++) {
      const due = firstSent + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.set(n, performance.now());
      patches.push(
        fetch(`${api.url}/v1/products/${product.id}`, { method: "PATCH", headers, body: JSON.stringify({ metadata: { n } }) }).then(async (res) => {
          if (res.status !== 200) throw new Error(`product update answered ${res.status}: ${await res.text()}`);
        }),
      );
    }
    await Promise.all(patches);
    const expected = UPDATES * ENDPOINTS;
    const deadline = Date.now() + 300_000;
    while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = pct(sorted, 50);
    const p99 = pct(sorted, 99);
    const perSecond = latencies.length / ((lastReceived - firstSent) / 1000);
    const lost = expected - latencies.length;
    console.log(`\n${ENDPOINTS} endpoints, ${UPDATES} updates at ${RATE}/s (${expected} deliveries), node ${process.version}\n`);
    console.log("| measure | value | target |");
    console.log("|---|---:|---|");
    console.log(`| state change → delivered p50 | ${p50.toFixed(0)} ms | |`);
    console.log(`| state change → delivered p99 | ${p99.toFixed(0)} ms | ≤ 250 ms (${p99 <= 250 ? "met" : "missed"}) |`);
    console.log(`| deliveries per second | ${perSecond.toFixed(0)} | ≥ 500 (${perSecond >= 500 ? "met" : "missed"}) |`);
    console.log(`| deliveries missing after 300 s | ${lost} | 0 |`);
    if (lost > 0) process.exitCode = 1;
    return { p50, p99, perSecond, lost };
  } finally {
    await api?.close();
    await worker?.shutdown();
    await new Promise<void>((r) => receiver.close(() => r()));
    await knex.destroy();
    await temporal.stop();
    await pg.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runWebhookBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
