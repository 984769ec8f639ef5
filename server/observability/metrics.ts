// Prometheus metrics at GET /metrics (prom-client): requests by operation and status with their
// latencies, the database pool, the process, and the platform's backlogs read from the database
// at scrape time (docs/DEPLOYMENT.md lists them). METRICS_TOKEN, when set, asks for a bearer token.
// Observability, not HTTP: the pipeline only reports each request here, the gauges read the domains.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Knex } from "knex";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { countFailedJobsLastHour, countPendingJobs } from "../benefit-grants/repository.js";
import { countAwaitingRecovery } from "../checkouts/repository.js";
import { logger } from "../kit/logger.js";
import { countUnpublished } from "../kit/outbox-repository.js";
import { countRenewalOrdersLastHour } from "../orders/repository.js";
import { countRenewalsDue } from "../subscriptions/repository.js";
import { countFailedDeliveriesLastHour, countPendingEvents, pendingEventsLagSeconds } from "../webhooks/repository.js";

export interface Metrics {
  /** Counts a finished request (called from the request's `finish`). */
  observe(operationId: string | undefined, method: string, path: string, status: number, seconds: number): void;
  route(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

export function createMetrics(knex: Knex, opts: { token?: string } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "borealis_" });
  const labels = ["operation", "method", "status"] as const;
  const requests = new Counter({
    name: "borealis_http_requests_total",
    help: "HTTP requests answered, by operation and status",
    labelNames: labels,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "borealis_http_request_duration_seconds",
    help: "HTTP request latency, by operation and status",
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  type Pool = { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number };
  const pool = () => (knex.client as { pool?: Pool }).pool;
  new Gauge({
    name: "borealis_db_pool_connections",
    help: "Database pool connections by state (used, free, waiting for one, max)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      this.set({ state: "used" }, p.numUsed());
      this.set({ state: "free" }, p.numFree());
      this.set({ state: "waiting" }, p.numPendingAcquires());
      this.set({ state: "max" }, p.max);
    },
  });
  const fromDb = (name: string, help: string, read: (db: Knex) => Promise<number>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        try {
          this.set(await read(knex));
        } catch (err) {
          logger.warn({ err, metric: name }, "metric not read");
        }
      },
    });
  fromDb("borealis_webhook_events_pending", "Webhook events not delivered yet", countPendingEvents);
  fromDb("borealis_webhook_delivery_lag_seconds", "Age of the oldest webhook event not delivered yet", pendingEventsLagSeconds);
  fromDb(
    "borealis_webhook_deliveries_failed_last_hour",
    "Webhook delivery attempts that failed in the last hour",
    countFailedDeliveriesLastHour,
  );
  fromDb("borealis_renewals_due", "Live subscriptions past their period end, not renewed yet", countRenewalsDue);
  fromDb("borealis_renewals_done_last_hour", "Renewal orders written in the last hour", countRenewalOrdersLastHour);
  fromDb("borealis_benefit_grant_jobs_pending", "Benefit grant jobs not done yet", countPendingJobs);
  fromDb("borealis_benefit_grant_jobs_failed_last_hour", "Benefit grant jobs that ended failed in the last hour", countFailedJobsLastHour);
  fromDb(
    "borealis_checkouts_awaiting_recovery",
    "Confirmed checkouts whose confirm stopped renewing its lease, waiting for the worker's recovery",
    countAwaitingRecovery,
  );
  fromDb("borealis_outbox_unpublished", "Outbox rows not relayed to webhooks yet", countUnpublished);

  return {
    observe(operationId, method, path, status, seconds) {
      const operation = operationId ?? (path === "/metrics" ? "metrics" : "other");
      const l = { operation, method, status: String(status) };
      requests.inc(l);
      duration.observe(l, seconds);
    },
    route: async (req, reply) => {
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
        return reply.code(401).send({ error: "Unauthorized", detail: "The metrics token is missing or wrong." });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  };
}
