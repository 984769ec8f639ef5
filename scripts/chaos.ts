// `make chaos`: the supervised stack (scripts/stack.ts) under load (checkouts, refunds, renewals,
// webhooks) while PostgreSQL, Temporal, workers and APIs are SIGKILLed at random; then it checks
// the books as docs/RELIABILITY.md lists them, after racing confirms and discounts first. Exits 1
// on any problem; test/chaos/ runs a short form. Settings: CHAOS_DURATION_S (120),
// CHAOS_KILL_EVERY_S ("4-12"), CHAOS_APIS, CHAOS_WORKERS, CHAOS_BUYERS, CHAOS_CLOCKS, CHAOS_SEED.
import { randomUUID } from "node:crypto";
import { mkdirSync, openSync, closeSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { createKnex } from "../server/kit/db.js";
import { readSandboxLedger } from "../server/processors/sandbox.js";
import { seedDemo } from "../server/seed.js";
import { subscriptionWorkflowId } from "../workflows/shared/ids.js";
import { DATA_DIR, freePort, startMailpit, type MailpitHandle } from "./services.js";
import { startStack, type Stack } from "./stack.js";
import { sleep } from "../server/kit/time.js";

export interface ChaosOptions {
  durationMs: number;
  /** Least and most time between two kills. */
  killEveryMs: [number, number];
  apis: number;
  workers: number;
  buyers: number;
  clocks: number;
  dataDir: string;
  seed: number;
  log: (line: string) => void;
}

export interface Kill {
  atMs: number;
  victim: string;
  pid: number;
}

export interface ChaosReport {
  kills: Kill[];
  restarts: Record<string, number>;
  counts: Record<string, number>;
  problems: string[];
}

interface Answer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** A seeded random generator (mulberry32), so a run can be repeated. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The platform's client in this harness: requests go round-robin over the APIs; a write carries
 * an Idempotency-Key and is retried with it (network errors, 5xx, 429, IdempotencyKeyInUse) until
 * a definite answer or the deadline, as a careful client would.
 */
class Api {
  private next = 0;
  retries = 0;
  replays = 0;
  constructor(
    private readonly urls: string[],
    private readonly token: string,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    opts: { key?: string; bearer?: boolean; deadlineMs?: number } = {},
  ): Promise<Answer> {
    const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
    const retryable = method === "GET" || opts.key !== undefined;
    for (;;) {
      const url = this.urls[this.next++ % this.urls.length] + path;
      try {
        const res = await fetch(url, {
          method,
          headers: {
            "content-type": "application/json",
            ...(opts.bearer === false ? {} : { authorization: `Bearer ${this.token}` }),
            ...(opts.key ? { "idempotency-key": opts.key } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const parsed: unknown = text ? JSON.parse(text) : null;
        const inUse = res.status === 409 && (parsed as { error?: string } | null)?.error === "IdempotencyKeyInUse";
        if (!retryable || !(res.status >= 500 || res.status === 429 || inUse)) {
          const replayed = res.headers.get("idempotent-replayed") === "true";
          if (replayed) this.replays++;
          return { status: res.status, body: parsed, replayed };
        }
      } catch (err) {
        if (!retryable) throw err;
      }
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no definite answer before the deadline`);
      this.retries++;
      await sleep(300);
    }
  }

  async ok<T>(method: string, path: string, body?: unknown, opts: { key?: string; bearer?: boolean } = {}): Promise<T> {
    const a = await this.call(method, path, body, { key: opts.key ?? (method === "GET" ? undefined : randomUUID()), bearer: opts.bearer });
    if (a.status >= 300) throw new Error(`${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body as T;
  }
}

/** The webhook receiver: every delivery's webhook-id, event type and body. */
class Receiver {
  readonly got: { id: string; type: string; body: string }[] = [];
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let type = "";
      try {
        type = (JSON.parse(body) as { type: string }).type;
      } catch {
        /* counted with an empty type */
      }
      this.got.push({ id: String(req.headers["webhook-id"] ?? ""), type, body });
      res.writeHead(200).end("ok");
    });
  });
  url = "";
  async start() {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
  ids(): Set<string> {
    return new Set(this.got.map((g) => g.id));
  }
  duplicates(): number {
    return this.got.length - this.ids().size;
  }
}

const CARD = { customer_billing_address: { country: "FR" }, confirmation_token_id: "tok_sandbox_success" };
const WEBHOOK_EVENTS = [
  "order.created",
  "order.paid",
  "order.refunded",
  "refund.created",
  "subscription.created",
  "subscription.updated",
  "benefit_grant.created",
];

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const rnd = random(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const counts: Record<string, number> = {};
  const count = (name: string, n = 1) => (counts[name] = (counts[name] ?? 0) + n);
  const problems: string[] = [];
  const problem = (p: string) => {
    problems.push(p);
    opts.log(`PROBLEM ${p}`);
  };
  const kills: Kill[] = [];

  rmSync(opts.dataDir, { recursive: true, force: true });
  mkdirSync(opts.dataDir, { recursive: true });
  const logFd = openSync(path.join(opts.dataDir, "processes.log"), "a");
  const receiver = new Receiver();
  await receiver.start();
  let token = "";
  let stack: Stack | undefined;
  let mailpit: MailpitHandle | undefined;
  try {
    mailpit = await startMailpit();
    stack = await startStack({
      dataDir: opts.dataDir,
      port: await freePort(),
      apis: opts.apis,
      workers: opts.workers,
      env: {
        LOG_LEVEL: "warn",
        WEBHOOKS_ALLOW_HTTP: "1",
        WEBHOOKS_ALLOW_LOOPBACK: "1",
        // Every buyer comes from 127.0.0.1: the per-address limit on public doors would only slow the load.
        RATE_LIMIT_PUBLIC: "off",
        // The receipts go to a Mailpit of this run's own, counted at the end.
        SMTP_URL: mailpit.smtpUrl,
      },
      stdio: ["ignore", logFd, logFd],
      ownServices: true,
      log: (line) => opts.log(`[supervisor] ${line}`),
      onMigrated: async (knex) => {
        token = (await seedDemo(knex)).token;
      },
    });
    const s = stack;
    const api = new Api(s.apiUrls, token);
    opts.log(
      `stack up: ${s.supervisor
        .names()
        .map((n) => `${n} ${s.supervisor.pid(n)}`)
        .join(", ")}; APIs ${s.apiUrls.join(" ")}`,
    );

    // --- set-up ----------------------------------------------------------------------------------
    const endpoint = await api.ok<{ id: string }>("POST", "/v1/webhooks/endpoints", {
      url: receiver.url,
      format: "raw",
      events: WEBHOOK_EVENTS,
    });
    const benefit = await api.ok<{ id: string }>("POST", "/v1/benefits/", {
      type: "custom",
      description: "Chaos support",
      properties: { note: "hi" },
    });
    const book = await api.ok<{ id: string }>("POST", "/v1/products/", {
      name: "Chaos book",
      prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "usd" }],
    });
    await api.ok("POST", `/v1/products/${book.id}/benefits`, { benefits: [benefit.id] });
    const plan = await api.ok<{ id: string }>("POST", "/v1/products/", {
      name: "Chaos plan",
      recurring_interval: "month",
      prices: [{ amount_type: "fixed", price_amount: 500, price_currency: "usd" }],
    });
    const start = new Date(Date.UTC(2030, 0, 15, 12));
    const clocks: { id: string; time: Date; advances: number; subscriptionId: string }[] = [];
    for (let i = 0; i < opts.clocks; i++) {
      const clock = await api.ok<{ id: string }>("POST", "/v1/test-clocks/", { name: `chaos ${i}`, frozen_time: start.toISOString() });
      const customer = await api.ok<{ id: string }>("POST", "/v1/customers/", {
        email: `clock-${i}-${randomUUID().slice(0, 6)}@example.com`,
      });
      await api.ok("POST", `/v1/test-clocks/${clock.id}/customers`, { customer_id: customer.id });
      const checkout = await api.ok<{ client_secret: string }>("POST", "/v1/checkouts/", { products: [plan.id], customer_id: customer.id });
      await api.ok("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, CARD, { bearer: false });
      const subs = await api.ok<{ items: { id: string }[] }>("GET", `/v1/subscriptions/?customer_id=${customer.id}`);
      clocks.push({ id: clock.id, time: start, advances: 0, subscriptionId: subs.items[0].id });
    }

    // --- races on two APIs and two workers, nothing killed ---------------------------------------
    const raced = await api.ok<{ id: string; client_secret: string }>("POST", "/v1/checkouts/", { products: [book.id] });
    const confirms = await Promise.all(
      Array.from({ length: 16 }, () =>
        api.call(
          "POST",
          `/v1/checkouts/client/${raced.client_secret}/confirm`,
          { ...CARD, customer_email: "race@example.com" },
          { bearer: false },
        ),
      ),
    );
    const won = confirms.filter((c) => c.status === 200).length;
    counts["race: confirms answered 200 of 16"] = won;
    if (won !== 1) problem(`16 concurrent confirms of one checkout: ${won} answered 200`);
    const code = `CHAOS${randomUUID().slice(0, 6).toUpperCase()}`;
    const discount = await api.ok<{ id: string }>("POST", "/v1/discounts/", {
      name: "Three only",
      type: "fixed",
      amount: 100,
      currency: "usd",
      duration: "once",
      code,
      max_redemptions: 3,
    });
    const racers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const c = await api.ok<{ client_secret: string }>("POST", "/v1/checkouts/", { products: [book.id] });
        await api.ok("PATCH", `/v1/checkouts/client/${c.client_secret}`, { discount_code: code }, { bearer: false });
        return c.client_secret;
      }),
    );
    const redeemed = await Promise.all(
      racers.map((secret) =>
        api.call("POST", `/v1/checkouts/client/${secret}/confirm`, { ...CARD, customer_email: "discount@example.com" }, { bearer: false }),
      ),
    );
    counts["race: discount confirms answered 200 of 10 (3 redemptions)"] = redeemed.filter((r) => r.status === 200).length;

    const calmKnex = createKnex(s.databaseUrl, { pool: { min: 0, max: 2 } });
    try {
      const usedUp = await calmKnex("discounts").where({ id: discount.id }).first("redemptions_count");
      const withDiscount = await calmKnex("orders").where({ discount_id: discount.id }).count({ n: "*" });
      counts["race: discount redemptions"] = usedUp.redemptions_count;
      if (usedUp.redemptions_count !== 3 || Number(withDiscount[0].n) !== 3)
        problem(`a discount of 3 redemptions was redeemed ${usedUp.redemptions_count} times, on ${withDiscount[0].n} orders`);
      if ((await calmKnex("orders").where({ checkout_id: raced.id })).length !== 1)
        problem("16 concurrent confirms made more or less than one order");
      // Delivered exactly once while nothing is killed.
      // Every event so far fanned out to the endpoint and received.
      await waitFor("calm deliveries", 120_000, async () => {
        if (Number((await calmKnex("outbox").whereNull("published_at").count({ n: "*" }))[0].n) > 0) return false;
        const ids: { id: string }[] = await calmKnex("webhook_events").where({ endpoint_id: endpoint.id }).select("id");
        const got = receiver.ids();
        return ids.length > 0 && ids.every((e) => got.has(e.id));
      });
      await sleep(1_000);
      counts["calm: webhook deliveries"] = receiver.got.length;
      counts["calm: duplicate deliveries"] = receiver.duplicates();
      if (receiver.duplicates() > 0) problem(`${receiver.duplicates()} webhook deliveries were duplicated while nothing was killed`);
    } finally {
      await calmKnex.destroy();
    }

    // --- load and kills ----------------------------------------------------------------------------
    const t0 = Date.now();
    const until = t0 + opts.durationMs;
    const confirmed: { checkoutId: string; status: number }[] = [];
    const paidOrders: string[] = [];
    const refundIds = new Set<string>();
    let unfinished = 0;

    const buyer = async () => {
      while (Date.now() < until) {
        try {
          const checkout = await api.ok<{ id: string; client_secret: string }>(
            "POST",
            "/v1/checkouts/",
            { products: [book.id] },
            { key: randomUUID() },
          );
          const decline = rnd() < 0.1;
          const answer = await api.call(
            "POST",
            `/v1/checkouts/client/${checkout.client_secret}/confirm`,
            {
              ...CARD,
              customer_email: `buyer-${randomUUID().slice(0, 8)}@example.com`,
              ...(decline ? { confirmation_token_id: "tok_sandbox_decline" } : {}),
            },
            { key: randomUUID(), bearer: false },
          );
          confirmed.push({ checkoutId: checkout.id, status: answer.status });
          count(`confirm answered ${answer.status}`);
          if (answer.status === 200) {
            const orders = await api.ok<{ items: { id: string }[] }>("GET", `/v1/orders/?checkout_id=${checkout.id}`);
            if (orders.items[0]) paidOrders.push(orders.items[0].id);
          }
        } catch (err) {
          unfinished++;
          opts.log(`buyer: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    const refunder = async () => {
      while (Date.now() < until) {
        await sleep(300 + rnd() * 700);
        if (paidOrders.length === 0) continue;
        const orderId = pick(paidOrders);
        try {
          const a = await api.call(
            "POST",
            "/v1/refunds/",
            { order_id: orderId, reason: "customer_request", amount: 100 + Math.floor(rnd() * 500) },
            { key: randomUUID() },
          );
          count(`refund answered ${a.status}`);
          if (a.status === 201) refundIds.add((a.body as { id: string }).id);
        } catch (err) {
          unfinished++;
          opts.log(`refund: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    const clockwork = async () => {
      while (Date.now() < until) {
        await sleep(1_500 + rnd() * 2_500);
        const clock = pick(clocks);
        const next = new Date(clock.time);
        next.setUTCMonth(next.getUTCMonth() + 1);
        try {
          const a = await api.call(
            "POST",
            `/v1/test-clocks/${clock.id}/advance`,
            { frozen_time: next.toISOString() },
            { key: randomUUID() },
          );
          if (a.status === 200) {
            clock.time = next;
            clock.advances++;
            count("clock advances");
          } else count(`clock advance answered ${a.status}`);
        } catch (err) {
          unfinished++;
          opts.log(`clock: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    const killer = async () => {
      const kinds = ["api", "worker", "temporal", "postgres"];
      let round: string[] = [];
      while (Date.now() < until) {
        await sleep(opts.killEveryMs[0] + rnd() * (opts.killEveryMs[1] - opts.killEveryMs[0]));
        if (Date.now() >= until) break;
        if (round.length === 0) round = [...kinds].sort(() => rnd() - 0.5);
        const kind = round.pop()!;
        const victim = kind === "api" ? pick(s.apis) : kind === "worker" ? pick(s.workers) : kind;
        const pid = s.supervisor.pid(victim);
        if (!pid) continue;
        try {
          process.kill(pid, "SIGKILL");
          kills.push({ atMs: Date.now() - t0, victim, pid });
          opts.log(`killed ${victim} (pid ${pid}) at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        } catch {
          /* it was already gone (restarting) */
        }
      }
    };
    await Promise.all([...Array.from({ length: opts.buyers }, buyer), refunder(), clockwork(), killer()]);
    counts["unfinished requests (no definite answer before the deadline)"] = unfinished;
    counts["client retries"] = api.retries;
    counts["replayed answers"] = api.replays;
    opts.log(`load over after ${((Date.now() - t0) / 1000).toFixed(1)} s; waiting for the platform to catch up`);

    // --- catching up -------------------------------------------------------------------------------
    for (const url of s.apiUrls)
      await waitFor(`${url}/readyz`, 180_000, async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200);
    const knex = createKnex(s.databaseUrl, { pool: { min: 0, max: 4 } });
    try {
      const backlog = async () => {
        const [confirming, jobs, events, outbox, emails] = await Promise.all([
          knex("checkouts").where({ status: "confirmed" }).count({ n: "*" }),
          knex("benefit_grant_jobs").whereNull("done_at").count({ n: "*" }),
          knex("webhook_events").where({ endpoint_id: endpoint.id, pending: true }).count({ n: "*" }),
          knex("outbox").whereNull("published_at").count({ n: "*" }),
          knex("email_sends").where({ status: "pending" }).count({ n: "*" }),
        ]);
        const advancing: string[] = [];
        for (const c of clocks)
          if ((await api.ok<{ status: string }>("GET", `/v1/test-clocks/${c.id}`)).status !== "ready") advancing.push(c.id);
        return {
          confirming: Number(confirming[0].n),
          jobs: Number(jobs[0].n),
          events: Number(events[0].n),
          outbox: Number(outbox[0].n),
          emails: Number(emails[0].n),
          advancing: advancing.length,
        };
      };
      let left = await backlog();
      const caughtUp = await waitFor("the backlog", 300_000, async () => {
        left = await backlog();
        return Object.values(left).every((n) => n === 0);
      }).then(
        () => true,
        () => false,
      );
      if (!caughtUp) problem(`stuck after 5 minutes: ${JSON.stringify(left)}`);
      await sleep(2_000);

      await checkBooks(knex, {
        opts,
        endpointId: endpoint.id,
        benefitId: benefit.id,
        confirmed,
        refundIds,
        unfinished,
        clocks,
        receiver,
        count,
        problem,
      });
      await checkReceipts(knex, {
        mailpitUrl: mailpit.httpUrl,
        workerKills: kills.filter((k) => s.workers.includes(k.victim)).length,
        count,
        problem,
      });
      const temporal = await Connection.connect({ address: s.temporalAddress });
      try {
        const client = new Client({ connection: temporal });
        const live = await knex("subscriptions").whereIn("status", ["active", "trialing", "past_due"]).select("id");
        let running = 0;
        for (const sub of live) {
          const d = await client.workflow
            .getHandle(subscriptionWorkflowId(sub.id))
            .describe()
            .catch(() => null);
          if (d?.status.name === "RUNNING") running++;
          else problem(`subscription ${sub.id} is live but its workflow is ${d?.status.name ?? "missing"}`);
        }
        counts["live subscriptions with a running workflow"] = running;
      } finally {
        await temporal.close();
      }
    } finally {
      await knex.destroy();
    }
    const restarts = Object.fromEntries(s.supervisor.names().map((n) => [n, s.supervisor.restarts(n)]));
    return { kills, restarts, counts, problems };
  } finally {
    await stack?.stop();
    await mailpit?.stop();
    await receiver.stop();
    closeSync(logFd);
  }
}

async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await done()) return;
    } catch {
      /* not yet */
    }
    await sleep(500);
  }
  throw new Error(`${what}: not done within ${timeoutMs / 1000} s`);
}

async function checkBooks(
  knex: ReturnType<typeof createKnex>,
  c: {
    opts: ChaosOptions;
    endpointId: string;
    benefitId: string;
    confirmed: { checkoutId: string; status: number }[];
    refundIds: Set<string>;
    unfinished: number;
    clocks: { id: string; advances: number; subscriptionId: string }[];
    receiver: Receiver;
    count: (name: string, n?: number) => void;
    problem: (p: string) => void;
  },
): Promise<void> {
  const { count, problem } = c;
  // Checkouts, orders, payments, charges.
  const checkouts: { id: string; status: string }[] = await knex("checkouts").select("id", "status");
  const orders: {
    id: string;
    checkout_id: string | null;
    status: string;
    subtotal_amount: number;
    discount_amount: number;
    refunded_amount: number;
    subscription_id: string | null;
    billing_reason: string;
    billing_period_start: Date | null;
  }[] = await knex("orders").select(
    "id",
    "checkout_id",
    "status",
    "subtotal_amount",
    "discount_amount",
    "refunded_amount",
    "subscription_id",
    "billing_reason",
    "billing_period_start",
  );
  const payments: { checkout_id: string | null; order_id: string | null; status: string; processor_ref: string | null }[] = await knex(
    "payments",
  ).select("checkout_id", "order_id", "status", "processor_ref");
  const ledger = new Map(
    (await readSandboxLedger(path.join(c.opts.dataDir, "sandbox-ledger"))).map((e) => [e.key, e.value as { paymentRef?: string }]),
  );
  const byCheckout = (rows: { checkout_id: string | null }[]) => {
    const m = new Map<string, number>();
    for (const r of rows) if (r.checkout_id) m.set(r.checkout_id, (m.get(r.checkout_id) ?? 0) + 1);
    return m;
  };
  const ordersOf = byCheckout(orders.filter((o) => o.billing_reason !== "subscription_cycle"));
  const paidOf = byCheckout(payments.filter((p) => p.status === "succeeded" && p.order_id));
  let succeeded = 0;
  for (const ch of checkouts) {
    if (ch.status === "confirmed") problem(`checkout ${ch.id} is still confirmed`);
    if (ch.status === "succeeded") {
      succeeded++;
      if (ordersOf.get(ch.id) !== 1) problem(`succeeded checkout ${ch.id} has ${ordersOf.get(ch.id) ?? 0} orders`);
      if ((paidOf.get(ch.id) ?? 0) > 1) problem(`succeeded checkout ${ch.id} has ${paidOf.get(ch.id)} succeeded payments`);
    } else if (ordersOf.get(ch.id)) problem(`${ch.status} checkout ${ch.id} has an order`);
  }
  for (const p of payments.filter((x) => x.status === "succeeded" && x.checkout_id && x.processor_ref?.startsWith("pi_"))) {
    const charge = ledger.get(`confirm:checkout:${p.checkout_id}:confirm`);
    if (!charge || charge.paymentRef !== p.processor_ref)
      problem(`payment of checkout ${p.checkout_id} is not the processor's one charge for it`);
  }
  const status = new Map(checkouts.map((ch) => [ch.id, ch.status]));
  for (const a of c.confirmed) {
    if (a.status === 200 && status.get(a.checkoutId) !== "succeeded")
      problem(`confirm of ${a.checkoutId} answered 200 but the checkout is ${status.get(a.checkoutId)}`);
  }
  count("checkouts succeeded", succeeded);
  count("orders", orders.length);
  count("succeeded payments", payments.filter((p) => p.status === "succeeded").length);

  // Renewals: one order per period.
  const periods = new Map<string, number>();
  for (const o of orders.filter((x) => x.subscription_id && x.billing_period_start)) {
    const k = `${o.subscription_id}@${new Date(o.billing_period_start!).toISOString()}`;
    periods.set(k, (periods.get(k) ?? 0) + 1);
  }
  for (const [k, n] of periods) if (n > 1) problem(`renewal period ${k} has ${n} orders`);
  let renewals = 0;
  for (const clock of c.clocks) {
    const sub = await knex("subscriptions").where({ id: clock.subscriptionId }).first("period_index", "status");
    const cycles = orders.filter((o) => o.subscription_id === clock.subscriptionId && o.billing_reason === "subscription_cycle").length;
    renewals += cycles;
    if (cycles !== sub.period_index)
      problem(`subscription ${clock.subscriptionId}: ${cycles} renewal orders for ${sub.period_index} renewed periods`);
    if (sub.period_index !== clock.advances)
      problem(`subscription ${clock.subscriptionId}: ${sub.period_index} periods renewed for ${clock.advances} months advanced`);
  }
  count("renewal orders", renewals);

  // Refunds: never past the amount; the order's refunded amount is their sum; none without an answer.
  const refunds: { id: string; order_id: string; amount: number; status: string }[] = await knex("refunds").select(
    "id",
    "order_id",
    "amount",
    "status",
  );
  const refunded = new Map<string, number>();
  for (const r of refunds.filter((x) => x.status !== "failed"))
    refunded.set(r.order_id, (refunded.get(r.order_id) ?? 0) + Number(r.amount));
  for (const o of orders) {
    const sum = refunded.get(o.id) ?? 0;
    if (sum > Number(o.subtotal_amount) - Number(o.discount_amount)) problem(`order ${o.id} refunded ${sum}, more than it was paid`);
    if (sum !== Number(o.refunded_amount)) problem(`order ${o.id}: refunded_amount ${o.refunded_amount}, refunds sum to ${sum}`);
  }
  for (const id of c.refundIds) if (!refunds.some((r) => r.id === id)) problem(`refund ${id} was answered but does not exist`);
  const unanswered = refunds.filter((r) => !c.refundIds.has(r.id)).length;
  if (unanswered > c.unfinished)
    problem(`${unanswered} refunds exist that no answer gave (and only ${c.unfinished} requests went unanswered)`);
  count("refunds", refunds.length);

  // Webhooks: every event delivered, under its own id, with one body.
  const events: { id: string; type: string; payload: string }[] = await knex("webhook_events")
    .where({ endpoint_id: c.endpointId })
    .select("id", "type", "payload");
  const got = new Map<string, Set<string>>();
  for (const g of c.receiver.got) got.set(g.id, (got.get(g.id) ?? new Set()).add(g.body));
  for (const e of events) {
    const bodies = got.get(e.id);
    if (!bodies) problem(`webhook event ${e.id} (${e.type}) was never delivered`);
    else if (bodies.size > 1) problem(`webhook event ${e.id} was delivered with ${bodies.size} different bodies`);
  }
  const createdEvents = new Set(
    events.filter((e) => e.type === "order.created").map((e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id),
  );
  for (const o of orders) if (!createdEvents.has(o.id)) problem(`order ${o.id} has no order.created event`);
  count("webhook events", events.length);
  count("webhook deliveries received", c.receiver.got.length);
  count(
    "webhook events delivered more than once",
    [...got.keys()].filter((id) => c.receiver.got.filter((g) => g.id === id).length > 1).length,
  );

  // Grants: every paid one-time order of the book grants its benefit.
  const grants: { order_id: string | null; granted_at: Date | null; revoked_at: Date | null }[] = await knex("benefit_grants")
    .where({ benefit_id: c.benefitId })
    .select("order_id", "granted_at", "revoked_at");
  const granted = new Set(grants.filter((g) => g.granted_at).map((g) => g.order_id));
  const oneTime = orders.filter((o) => o.billing_reason === "purchase" && o.status !== "pending");
  for (const o of oneTime) if (!granted.has(o.id)) problem(`paid order ${o.id} has no granted benefit`);
  count("benefit grants granted", granted.size);
}

/**
 * Receipts: every paid order has exactly one receipt in the send log, sent, and Mailpit got it
 * under that one Message-ID; repeats of a Message-ID (a send killed after the SMTP server's 250,
 * before its commit) are at most the worker kills. Nothing is left pending or failed.
 */
async function checkReceipts(
  knex: ReturnType<typeof createKnex>,
  c: { mailpitUrl: string; workerKills: number; count: (name: string, n?: number) => void; problem: (p: string) => void },
): Promise<void> {
  const { count, problem } = c;
  const received = new Map<string, number>();
  for (let start = 0; ; start += 500) {
    const res = await fetch(`${c.mailpitUrl}/api/v1/messages?start=${start}&limit=500`);
    const page = (await res.json()) as { messages: { MessageID: string }[] };
    for (const m of page.messages) received.set(`<${m.MessageID}>`, (received.get(`<${m.MessageID}>`) ?? 0) + 1);
    if (page.messages.length < 500) break;
  }
  const sends: { kind: string; status: string; message_id: string; order_id: string | null }[] = await knex("email_sends").select(
    "kind",
    "status",
    "message_id",
    knex.raw("data -> 'order' ->> 'id' as order_id"),
  );
  for (const s of sends) if (s.status !== "sent") problem(`an email send (${s.kind}) is ${s.status}`);
  const receiptIds = new Map<string, Set<string>>();
  for (const s of sends.filter((x) => x.kind === "order_confirmation" || x.kind === "subscription_cycled")) {
    if (s.order_id) receiptIds.set(s.order_id, (receiptIds.get(s.order_id) ?? new Set()).add(s.message_id));
  }
  const paid: { id: string; billing_reason: string }[] = await knex("orders")
    .whereNot({ status: "pending" })
    .select("id", "billing_reason");
  let repeats = 0;
  for (const o of paid) {
    const ids = [...(receiptIds.get(o.id) ?? [])].filter((id) => received.has(id));
    if (ids.length !== 1) problem(`paid order ${o.id} (${o.billing_reason}) reached Mailpit under ${ids.length} receipt Message-IDs`);
    for (const id of ids) repeats += (received.get(id) ?? 0) - 1;
  }
  count(
    "receipts received (distinct Message-IDs)",
    [...receiptIds.values()].reduce((n, ids) => n + [...ids].filter((id) => received.has(id)).length, 0),
  );
  count("receipt messages repeated under the same Message-ID", repeats);
  count(
    "emails received",
    [...received.values()].reduce((a, b) => a + b, 0),
  );
  if (repeats > c.workerKills) problem(`${repeats} receipts were repeated, more than the ${c.workerKills} worker kills`);
}

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === "" ? fallback : Number(v);
}

async function main() {
  const [minS, maxS] = (process.env.CHAOS_KILL_EVERY_S ?? "4-12").split("-").map(Number);
  const seed = envInt("CHAOS_SEED", Math.floor(Math.random() * 2 ** 31));
  const started = Date.now();
  const log = (line: string) => process.stdout.write(`[chaos ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
  log(`seed ${seed}`);
  const dataDir = path.join(DATA_DIR, `chaos-${process.pid}`);
  const report = await runChaos({
    durationMs: envInt("CHAOS_DURATION_S", 120) * 1000,
    killEveryMs: [minS * 1000, (maxS ?? minS) * 1000],
    apis: envInt("CHAOS_APIS", 2),
    workers: envInt("CHAOS_WORKERS", 2),
    buyers: envInt("CHAOS_BUYERS", 4),
    clocks: envInt("CHAOS_CLOCKS", 3),
    dataDir,
    seed,
    log,
  });
  printReport(report, (l) => process.stdout.write(`${l}\n`));
  // Kept for a look when something was wrong (processes.log, pg/, temporal.db, sandbox-ledger/).
  if (report.problems.length === 0) rmSync(dataDir, { recursive: true, force: true });
  else log(`data and logs kept in ${dataDir}`);
  process.exit(report.problems.length ? 1 : 0);
}

export function printReport(report: ChaosReport, out: (line: string) => void): void {
  out("");
  out(`killed (${report.kills.length}):`);
  for (const k of report.kills) out(`  ${(k.atMs / 1000).toFixed(1).padStart(7)} s  ${k.victim} (pid ${k.pid})`);
  out(
    `restarts: ${Object.entries(report.restarts)
      .map(([n, r]) => `${n} ${r}`)
      .join(", ")}`,
  );
  out("counted:");
  for (const [name, n] of Object.entries(report.counts)) out(`  ${String(n).padStart(7)}  ${name}`);
  out(report.problems.length ? `PROBLEMS (${report.problems.length}):` : "books: every check passed");
  for (const p of report.problems) out(`  - ${p}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`chaos: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
