// `make bench`: seeds 10,000 products, then loads GET /v1/products/{id} and
// GET /v1/products/?limit=100 at 32 connections, beside the bare Express route in the same run,
// then checkout create (POST /v1/checkouts/) and confirm with the sandbox processor (POST
// /v1/checkouts/client/{client_secret}/confirm, each request a different open checkout), each at
// 32 and at 8 connections, and prints req/s, p50, p99 and the ratio to the baseline as a Markdown table.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../server/kit/db.js";
import { mintOrganizationToken } from "../server/kit/auth.js";
import { startPostgres } from "../scripts/services.js";
import { runSubscriptionBench } from "./subscriptions.js";
import { runUsageBench } from "./usage.js";
import { runWebhookBench } from "./webhooks.js";
import { createOrganization } from "../test/harness/factories.js";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
// Checkout create and confirm are also measured at 8 connections, the concurrency their targets
// are judged at (docs/BENCHMARKS.md says why); the 32-connection rows stay beside them.
const CHECKOUT_CONNECTIONS = 8;
const CONFIRMS = Number(process.env.BENCH_CONFIRMS ?? 2000);

interface Row { name: string; rps: number; p50: number; p99: number; errors: number }

async function load(name: string, url: string, headers: Record<string, string>, extra: Partial<autocannon.Options> = {}): Promise<Row> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, ...extra });
  const errors = r.errors + r.non2xx + r.timeouts;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors };
}

async function main() {
  const pg = await startPostgres({ dataDir: `.data/bench-pg-${process.pid}`, persistent: false });
  const knex = createKnex(pg.url);
  let child: ReturnType<typeof spawn> | undefined;
  try {
    await migrateLatest(knex);
    const org = await createOrganization(knex, { name: "Bench Org", slug: `bench-${Date.now()}` });
    const token = await mintOrganizationToken(knex, org.id);
    console.log(`seeding ${PRODUCTS} products…`);
    for (let start = 0; start < PRODUCTS; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, PRODUCTS - start) }, (_, i) => ({
        organization_id: org.id,
        name: `Product ${start + i}`,
        description: "Seeded for the benchmark",
        recurring_interval: (start + i) % 2 ? "month" : null,
        metadata: JSON.stringify({ n: start + i }),
      }));
      const ids: { id: string }[] = await knex("products").insert(batch).returning("id");
      await knex("product_prices").insert(ids.map(({ id }, i) => ({ product_id: id, amount_type: "fixed", price_currency: "usd", price_amount: 100 + i })));
    }
    await knex.raw("analyze");
    const someId = (await knex("products").where({ organization_id: org.id }).orderBy("created_at").offset(PRODUCTS >> 1).first("id")).id;
    const sample = await (await import("../server/products/service.js")).getProduct(knex, { kind: "organization", organizationId: org.id, tokenId: "bench", scopes: new Set() }, someId);

    child = spawn(process.execPath, ["--import", "tsx", "bench/server.ts"], {
      env: { ...process.env, DATABASE_URL: pg.url, LOG_LEVEL: "warn", BENCH_SAMPLE_BODY: JSON.stringify(sample) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const urls = JSON.parse(line) as { api: string; bare: string };
    const auth = { authorization: `Bearer ${token}` };

    const rows: Row[] = [];
    console.log(`warming up…`);
    await autocannon({ url: `${urls.api}/v1/products/${someId}`, connections: 8, duration: 2, headers: auth });
    rows.push(await load("bare Express route (baseline)", urls.bare, {}));
    rows.push(await load("GET /v1/products/{id}", `${urls.api}/v1/products/${someId}`, auth));
    rows.push(await load("GET /v1/products/?limit=100", `${urls.api}/v1/products/?limit=100`, auth));

    // Checkouts: create against a one-time fixed price, then confirm pre-created open checkouts,
    // one per request, paid with the sandbox's always-succeeding test token.
    const productId = someId;
    const json = { ...auth, "content-type": "application/json" };
    for (const connections of [CONNECTIONS, CHECKOUT_CONNECTIONS]) {
      rows.push(
        await load(`POST /v1/checkouts/ (create), ${connections} connections`, `${urls.api}/v1/checkouts/`, json, {
          method: "POST",
          body: JSON.stringify({ products: [productId] }),
          connections,
        }),
      );
    }
    const confirmBody = JSON.stringify({ customer_email: "bench@example.com", customer_name: "Bench", customer_billing_address: { country: "FR" }, confirmation_token_id: "tok_sandbox_success" });
    const openCheckouts = async (): Promise<string[]> => {
      const secrets: string[] = [];
      for (let i = 0; i < CONFIRMS; i++) {
        const res = await fetch(`${urls.api}/v1/checkouts/`, { method: "POST", headers: json, body: JSON.stringify({ products: [productId] }) });
        secrets.push(((await res.json()) as { client_secret: string }).client_secret);
      }
      return secrets;
    };
    for (const connections of [CONNECTIONS, CHECKOUT_CONNECTIONS]) {
      const secrets = await openCheckouts();
      // One confirm by hand first, so a broken request shape fails loudly instead of as non-2xx counts.
      const probe = await fetch(`${urls.api}/v1/checkouts/client/${secrets[0]}/confirm`, { method: "POST", headers: { "content-type": "application/json" }, body: confirmBody });
      if (probe.status !== 200) throw new Error(`confirm answered ${probe.status}: ${await probe.text()}`);
      let next = 1;
      const confirm = await autocannon({
        url: urls.api,
        connections,
        amount: CONFIRMS - 1,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            setupRequest: (req) => ({ ...req, path: `/v1/checkouts/client/${secrets[next++ % secrets.length]}/confirm`, body: confirmBody }),
          },
        ],
      });
      rows.push({
        name: `POST /v1/checkouts/client/{secret}/confirm (${CONFIRMS} checkouts), ${connections} connections`,
        rps: confirm.requests.average,
        p50: confirm.latency.p50,
        p99: confirm.latency.p99,
        errors: confirm.errors + confirm.non2xx + confirm.timeouts,
      });
    }
    const orders = Number((await knex("orders").count({ n: "*" }).first())?.n ?? 0);
    if (orders !== 2 * CONFIRMS) throw new Error(`expected ${2 * CONFIRMS} orders after the two confirm runs, found ${orders}`);

    const base = rows[0].rps;
    console.log(`\n${PRODUCTS} products, ${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}\n`);
    console.log("| route | req/s | p50 ms | p99 ms | vs bare | errors |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${((r.rps / base) * 100).toFixed(1)}% | ${r.errors} |`);
    }
    const single = rows[1];
    console.log(`\ntarget GET /v1/products/{id}: p99 <= 15 ms (${single.p99 <= 15 ? "met" : "missed"}), >= 35% of bare (${single.rps / base >= 0.35 ? "met" : "missed"})`);
    const [create32, create8, confirm32, confirm8] = rows.slice(3);
    const verdict = (r: Row, ms: number) => `${r.p99 <= ms ? "met" : "missed"} at ${CHECKOUT_CONNECTIONS} connections`;
    console.log(`target checkout create: p99 <= 50 ms (${verdict(create8, 50)}; ${create32.p99} ms at ${CONNECTIONS})`);
    console.log(`target checkout confirm: p99 <= 100 ms (${verdict(confirm8, 100)}; ${confirm32.p99} ms at ${CONNECTIONS})`);
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    child?.kill("SIGTERM");
    if (child) await once(child, "exit");
    await knex.destroy();
    await pg.stop();
  }
}

// Then the webhooks section (bench/webhooks.ts), the subscriptions section and the usage section
// (bench/usage.ts), each on services of its own (BENCH_WEBHOOKS / BENCH_SUBSCRIPTIONS / BENCH_USAGE=0 skip them).
main()
  .then(async () => {
    if (process.env.BENCH_WEBHOOKS === "0") return;
    console.log("");
    await runWebhookBench();
  })
  .then(async () => {
    if (process.env.BENCH_SUBSCRIPTIONS === "0") return;
    console.log("");
    await runSubscriptionBench();
  })
  .then(async () => {
    if (process.env.BENCH_USAGE === "0") return;
    console.log("");
    await runUsageBench();
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
