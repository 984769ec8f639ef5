// Prometheus metrics at /metrics (server/observability/metrics.ts): requests by operation and status with
// latency histograms, the database pool, and the platform's backlogs read from the database.
import { describe, expect, it } from "vitest";
import { orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("metrics", () => {
  it("counts requests by operation and status, with latencies, pool use and backlogs", async () => {
    const { token } = await orgWithToken(api.knex);
    await fetch(`${api.url}/v1/products/`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${api.url}/v1/products/`, { headers: { authorization: "Bearer polar_oat_wrong" } });
    const res = await fetch(`${api.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/borealis_http_requests_total\{operation="products:list",method="GET",status="200"\} [1-9]/);
    expect(text).toMatch(/borealis_http_requests_total\{operation="products:list",method="GET",status="401"\} [1-9]/);
    expect(text).toMatch(/borealis_http_request_duration_seconds_bucket\{[^}]*operation="products:list"[^}]*status="200"[^}]*\} [1-9]/);
    expect(text).toMatch(/borealis_db_pool_connections\{state="max"\} 10/);
    for (const name of [
      "webhook_events_pending",
      "webhook_delivery_lag_seconds",
      "webhook_deliveries_failed_last_hour",
      "renewals_due",
      "renewals_done_last_hour",
      "benefit_grant_jobs_pending",
      "benefit_grant_jobs_failed_last_hour",
      "checkouts_awaiting_recovery",
      "outbox_unpublished",
    ]) {
      expect(text).toMatch(new RegExp(`^borealis_${name} \\d+(\\.\\d+)?$`, "m"));
    }
    expect(text).toContain("borealis_process_cpu_seconds_total");
  });

  it("asks for METRICS_TOKEN when one is set", async () => {
    const guarded = await api.startAnother({ env: { METRICS_TOKEN: "s3cret" } });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
