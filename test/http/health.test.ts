// /healthz and /readyz (server/observability/health.ts): alive always; ready only when PostgreSQL and
// Temporal answer, 503 naming what failed otherwise, and 503 from the moment a drain starts.
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import type { Knex } from "knex";
import { createKnex } from "../../server/kit/db.js";
import { useTemporalAddress } from "../../workflows/client.js";
import { freePort } from "../../scripts/services.js";
import { useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("health", () => {
  const unreachable: Knex[] = [];
  afterAll(async () => {
    for (const knex of unreachable) await knex.destroy();
    useTemporalAddress(process.env.TEMPORAL_ADDRESS!);
  });

  it("is alive and ready when the database and Temporal answer", async () => {
    expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", checks: { database: { ok: true }, temporal: { ok: true } } });
  });

  it("answers 503 naming the database when PostgreSQL does not answer, and stays alive", async () => {
    // A database nobody listens on: the API starts over it and stays alive.
    const knex = createKnex(`postgres://postgres:postgres@127.0.0.1:${await freePort()}/borealis`);
    unreachable.push(knex);
    const down = await api.startAnother({ knex });
    expect((await fetch(`${down.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${down.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: "unavailable",
      checks: { database: { ok: false, error: expect.any(String) }, temporal: { ok: true } },
    });
  });

  it("answers 503 naming Temporal when it does not answer, then ready again when it does", async () => {
    useTemporalAddress(`127.0.0.1:${await freePort()}`);
    const res = await fetch(`${api.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { database: { ok: true }, temporal: { ok: false } } });
    useTemporalAddress(process.env.TEMPORAL_ADDRESS!);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
  });

  it("answers 503 draining once a drain has started, still serving for its delay; in-flight requests finish", async () => {
    const draining = await api.startAnother();
    expect((await fetch(`${draining.url}/readyz`)).status).toBe(200);
    // A request whose body is still arriving when the server stops listening is answered.
    const url = new URL(draining.url);
    const late = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/v1/products/",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": "2" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write("{");
      setTimeout(() => req.end("}"), 1_200);
    });
    const closed = draining.close(10_000, 600);
    const during = await fetch(`${draining.url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ status: "draining" });
    expect((await fetch(`${draining.url}/healthz`)).status).toBe(200);
    await closed;
    expect(await late).toBe(401); // answered (no token), not cut off
    await expect(fetch(`${draining.url}/healthz`)).rejects.toThrow();
  });
});
