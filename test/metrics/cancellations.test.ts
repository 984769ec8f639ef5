// Canceled subscriptions by reason through metrics:get (0.49.0's client, which knows the nine
// series): counted in the period of `canceled_at` in the caller's time zone, each reason apart,
// narrowed by product, billing type and customer, and never another organization's.
import { describe, expect, it } from "vitest";
import type { Knex } from "knex";
import { RFCDate } from "polar-sdk-049/types/rfcdate.js";
import { createCustomer, createProductWithPrice, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function canceled(
  knex: Knex,
  orgId: string,
  s: { customerId: string; productId: string; canceledAt: string | null; reason: string | null; endedAt?: string },
) {
  await knex("subscriptions").insert({
    organization_id: orgId,
    customer_id: s.customerId,
    product_id: s.productId,
    status: s.endedAt ? "canceled" : "active",
    amount: 1000,
    currency: "usd",
    recurring_interval: "month",
    billing_anchor: "2025-02-01T00:00:00Z",
    current_period_start: "2025-03-01T00:00:00Z",
    current_period_end: "2025-04-01T00:00:00Z",
    started_at: "2025-02-01T00:00:00Z",
    ended_at: s.endedAt ?? null,
    canceled_at: s.canceledAt,
    cancel_at_period_end: Boolean(s.canceledAt && !s.endedAt),
    customer_cancellation_reason: s.reason,
  });
}

describe("metrics: canceled subscriptions by reason", () => {
  it("counts each cancellation in its day, by reason, in the caller's time zone", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const alice = await createCustomer(api.knex, org.id);
    const bob = await createCustomer(api.knex, org.id);
    const { product: plan } = await createProductWithPrice(api.knex, org.id, { recurring_interval: "month" });
    const { product: other } = await createProductWithPrice(api.knex, org.id, { recurring_interval: "month" });
    const sub = (customerId: string, productId: string, canceledAt: string | null, reason: string | null, endedAt?: string) =>
      canceled(api.knex, org.id, { customerId, productId, canceledAt, reason, endedAt });
    await sub(alice.id, plan.id, "2025-03-02T10:00:00Z", "too_expensive");
    await sub(bob.id, plan.id, "2025-03-02T12:00:00Z", "too_expensive");
    await sub(alice.id, other.id, "2025-03-02T13:00:00Z", "missing_features", "2025-03-02T13:00:00Z");
    await sub(bob.id, other.id, "2025-03-03T23:30:00Z", null); // Mar 4 in Paris
    await sub(alice.id, plan.id, null, null); // never canceled
    await sub(bob.id, plan.id, "2025-02-28T12:00:00Z", "unused"); // before the range
    // Another organization's cancellation on the same day.
    const stranger = await orgWithToken(api.knex);
    const { product: theirs } = await createProductWithPrice(api.knex, stranger.org.id, { recurring_interval: "month" });
    await canceled(api.knex, stranger.org.id, {
      customerId: (await createCustomer(api.knex, stranger.org.id)).id,
      productId: theirs.id,
      canceledAt: "2025-03-02T10:00:00Z",
      reason: "too_expensive",
    });

    const polar = api.client049(token);
    const range = { startDate: new RFCDate("2025-03-01"), endDate: new RFCDate("2025-03-04"), interval: "day" as const };
    const utc = await polar.metrics.get(range);
    const series = (r: typeof utc, key: keyof (typeof utc.periods)[number]) => r.periods.map((p) => p[key]);
    expect(series(utc, "canceledSubscriptions")).toEqual([0, 3, 1, 0]);
    expect(series(utc, "canceledSubscriptionsTooExpensive")).toEqual([0, 2, 0, 0]);
    expect(series(utc, "canceledSubscriptionsMissingFeatures")).toEqual([0, 1, 0, 0]);
    expect(series(utc, "canceledSubscriptionsUnused")).toEqual([0, 0, 0, 0]);
    expect(utc.totals).toMatchObject({
      canceledSubscriptions: 4,
      canceledSubscriptionsTooExpensive: 2,
      canceledSubscriptionsMissingFeatures: 1,
      canceledSubscriptionsCustomerService: 0,
      canceledSubscriptionsLowQuality: 0,
      canceledSubscriptionsSwitchedService: 0,
      canceledSubscriptionsTooComplex: 0,
      canceledSubscriptionsUnused: 0,
      canceledSubscriptionsOther: 0,
    });
    expect(utc.metrics.canceledSubscriptionsTooExpensive).toEqual({
      slug: "canceled_subscriptions_too_expensive",
      displayName: "Canceled Subscriptions - Too Expensive",
      type: "scalar",
    });

    const paris = await polar.metrics.get(Object.assign({ timezone: "Europe/Paris" }, range));
    expect(series(paris, "canceledSubscriptions")).toEqual([0, 3, 0, 1]);

    const narrowed = await polar.metrics.get(
      Object.assign({ productId: [plan.id], metrics: ["canceled_subscriptions", "canceled_subscriptions_too_expensive"] }, range),
    );
    expect(narrowed.totals).toEqual({ canceledSubscriptions: 2, canceledSubscriptionsTooExpensive: 2 });
    const byCustomer = await polar.metrics.get(Object.assign({ customerId: [alice.id], metrics: ["canceled_subscriptions"] }, range));
    expect(byCustomer.totals).toEqual({ canceledSubscriptions: 2 });
    const oneTime = await polar.metrics.get(
      Object.assign({ billingType: ["one_time" as const], metrics: ["canceled_subscriptions"] }, range),
    );
    expect(oneTime.totals).toEqual({ canceledSubscriptions: 0 });
  });

  it("refuses an unknown reason's metric with a 422", async () => {
    const { token } = await orgWithToken(api.knex);
    const res = await fetch(
      `${api.url}/v1/metrics/?start_date=2025-03-01&end_date=2025-03-04&interval=day&metrics=canceled_subscriptions_bored`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[] }[] };
    expect(body.detail[0].loc).toEqual(["query", "metrics", 0]);
  });
});
