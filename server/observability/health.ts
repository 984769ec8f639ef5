// Liveness and readiness for process supervisors and load balancers. `/healthz`: the process is
// alive and its event loop answers. `/readyz`: PostgreSQL and the Temporal frontend answer, each
// within a short bound; 503 with what failed otherwise, and from the moment a drain starts
// (SIGTERM), so a balancer stops sending before the process stops listening.
// Observability, not HTTP: it is the process's state; the server's drain (server/main.ts) sets it.
import type { FastifyInstance } from "fastify";
import type { Knex } from "knex";
import { temporalReachable } from "../../workflows/client.js";
import { ping } from "../kit/db.js";

type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string };

async function timed(fn: () => Promise<{ ok: true } | { ok: false; error: string }>): Promise<Check> {
  const started = Date.now();
  const result = await fn();
  return Object.assign({}, result, { ms: Date.now() - started });
}

async function databaseReachable(knex: Knex, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(knex),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

export interface Health {
  /** GET /healthz and /readyz (with or without a trailing slash). */
  routes(app: FastifyInstance): void;
  /** From now on /readyz answers 503 (the process is draining). */
  drain(): void;
  readiness(): Promise<{ ready: boolean; draining: boolean; checks: { database: Check; temporal: Check } }>;
}

export function createHealth(knex: Knex, opts: { timeoutMs?: number } = {}): Health {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  let draining = false;
  const readiness = async () => {
    const [database, temporal] = await Promise.all([
      timed(() => databaseReachable(knex, timeoutMs)),
      timed(() => temporalReachable(timeoutMs)),
    ]);
    return { ready: !draining && database.ok && temporal.ok, draining, checks: { database, temporal } };
  };
  const routes = (app: FastifyInstance) => {
    for (const url of ["/healthz", "/healthz/"]) app.get(url, async () => ({ status: "ok" }));
    for (const url of ["/readyz", "/readyz/"]) {
      app.get(url, async (_req, reply) => {
        const r = await readiness();
        const status = r.ready ? "ready" : r.draining ? "draining" : "unavailable";
        return reply.code(r.ready ? 200 : 503).send({ status, checks: r.checks });
      });
    }
  };
  return {
    routes,
    drain: () => {
      draining = true;
    },
    readiness,
  };
}
