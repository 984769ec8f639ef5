// Metrics through the official client: the limits; a hand-checked history; validation; isolation;
// and a property test (fast-check) building random histories of orders, refunds, subscriptions and
// checkouts and comparing every one of the 22 series and their totals, for every interval, several
// time zones and every filter, with a plain recomputation.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { MetricsResponse } from "@polar-sh/sdk/models/components/metricsresponse.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { RFCDate } from "@polar-sh/sdk/types/rfcdate.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { RFCDate as RFCDate049 } from "polar-sdk-049/types/rfcdate.js";
import type { Knex } from "knex";
import { addIntervals, type RecurringInterval } from "../../server/subscriptions/periods.js";
import { bucketStart, createCustomer, createOrder, localMidnight, orgWithToken, rejects, type Unit, useTestApi } from "../harness/index.js";

const api = useTestApi();
const at = (s: string) => new Date(s);

const SLUGS = [
  "orders",
  "revenue",
  "netRevenue",
  "cumulativeRevenue",
  "netCumulativeRevenue",
  "averageOrderValue",
  "netAverageOrderValue",
  "oneTimeProducts",
  "oneTimeProductsRevenue",
  "oneTimeProductsNetRevenue",
  "newSubscriptions",
  "newSubscriptionsRevenue",
  "newSubscriptionsNetRevenue",
  "renewedSubscriptions",
  "renewedSubscriptionsRevenue",
  "renewedSubscriptionsNetRevenue",
  "activeSubscriptions",
  "monthlyRecurringRevenue",
  "committedMonthlyRecurringRevenue",
  "checkouts",
  "succeededCheckouts",
  "checkoutsConversion",
] as const;
type Slug = (typeof SLUGS)[number];
type Values = Record<Slug, number>;

async function product(knex: Knex, orgId: string, interval: "month" | "year" | "week" | "day" | null) {
  const [p] = await knex("products")
    .insert({ organization_id: orgId, name: `P ${interval ?? "once"}`, recurring_interval: interval })
    .returning("*");
  const [price] = await knex("product_prices")
    .insert({ product_id: p.id, amount_type: "fixed", price_currency: "usd", price_amount: 1000 })
    .returning("*");
  return { id: p.id as string, priceId: price.id as string, interval };
}

async function subscription(
  knex: Knex,
  orgId: string,
  s: {
    customerId: string;
    productId: string;
    interval: string;
    amount: number;
    startedAt: Date;
    endsAt?: Date | null;
    endedAt?: Date | null;
    canceledAt?: Date | null;
  },
) {
  const [row] = await knex("subscriptions")
    .insert({
      organization_id: orgId,
      customer_id: s.customerId,
      product_id: s.productId,
      status: s.endedAt ? "canceled" : "active",
      amount: s.amount,
      currency: "usd",
      recurring_interval: s.interval,
      billing_anchor: s.startedAt,
      current_period_start: s.startedAt,
      current_period_end: addIntervals(s.startedAt, s.interval as RecurringInterval, 1),
      started_at: s.startedAt,
      ends_at: s.endsAt ?? null,
      ended_at: s.endedAt ?? null,
      canceled_at: s.canceledAt ?? null,
      cancel_at_period_end: Boolean(s.canceledAt && !s.endedAt),
    })
    .returning("id");
  return row.id as string;
}

async function checkout(
  knex: Knex,
  orgId: string,
  c: { productId: string; priceId: string; customerId: string | null; status: string; createdAt: Date },
) {
  await knex("checkouts").insert({
    organization_id: orgId,
    client_secret: `secret_${randomUUID()}`,
    status: c.status,
    expires_at: new Date(c.createdAt.getTime() + 3_600_000),
    currency: "usd",
    product_id: c.productId,
    product_price_id: c.priceId,
    customer_id: c.customerId,
    created_at: c.createdAt,
  });
}

const metrics = (
  polar: Polar,
  req: {
    start: string;
    end: string;
    interval: Unit;
    timezone?: string;
    productId?: string[];
    billingType?: ("one_time" | "recurring")[];
    customerId?: string[];
  },
) =>
  polar.metrics.get({
    startDate: new RFCDate(req.start),
    endDate: new RFCDate(req.end),
    interval: req.interval,
    timezone: req.timezone,
    productId: req.productId,
    billingType: req.billingType,
    customerId: req.customerId,
  });

const series = (res: MetricsResponse, slug: Slug) => res.periods.map((p) => p[slug]);

describe("metrics", () => {
  it("answers the limits", async () => {
    const { token } = await orgWithToken(api.knex);
    const limits = await api.client(token).metrics.limits();
    expect(limits.minDate.toString()).toBe("2023-01-01");
    expect(limits.intervals).toEqual({
      hour: { maxDays: 7 },
      day: { maxDays: 366 },
      week: { maxDays: 365 },
      month: { maxDays: 1460 },
      year: { maxDays: 3650 },
    });
    // 0.49.0 reads the shortest range of each interval too.
    expect((await api.client049(token).metrics.limits()).intervals).toEqual({
      hour: { minDays: 0, maxDays: 7 },
      day: { minDays: 0, maxDays: 366 },
      week: { minDays: 14, maxDays: 365 },
      month: { minDays: 60, maxDays: 1460 },
      year: { minDays: 366, maxDays: 3650 },
    });
  });

  it("refuses a range shorter than its interval needs, and takes one just long enough", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    for (const [interval, start, end] of [
      ["week", "2025-03-01", "2025-03-14"],
      ["month", "2025-03-01", "2025-04-29"],
      ["year", "2024-01-01", "2024-12-31"],
    ] as const) {
      const err = await rejects(metrics(polar, { start, end, interval }), HTTPValidationError);
      expect(err.data$.detail?.[0]).toMatchObject({ loc: ["query"], type: "value_error" });
      expect(err.data$.detail?.[0].msg).toMatch(new RegExp(`^A ${interval} interval needs a range of at least \\d+ days`));
    }
    expect((await metrics(polar, { start: "2025-03-01", end: "2025-03-15", interval: "week" })).periods.length).toBeGreaterThan(0);
    expect((await metrics(polar, { start: "2025-03-01", end: "2025-04-30", interval: "month" })).periods).toHaveLength(2);
    const newer = await api
      .client049(token)
      .metrics.get({ startDate: new RFCDate049("2024-01-01"), endDate: new RFCDate049("2025-01-01"), interval: "year" });
    expect(newer.periods).toHaveLength(2);
  });

  it("computes every series of a hand-checked month", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const alice = await createCustomer(api.knex, org.id);
    const bob = await createCustomer(api.knex, org.id);
    const ebook = await product(api.knex, org.id, null);
    const monthly = await product(api.knex, org.id, "month");
    const yearly = await product(api.knex, org.id, "year");
    // Subscriptions: alice monthly 1000 from Mar 2 (renewed Apr 2); bob yearly 12000 from Mar 3,
    // set to cancel on Mar 20 (ends in a year); an old one that ended on Mar 2.
    const a = await subscription(api.knex, org.id, {
      customerId: alice.id,
      productId: monthly.id,
      interval: "month",
      amount: 1000,
      startedAt: at("2025-03-02T10:00:00Z"),
    });
    const b = await subscription(api.knex, org.id, {
      customerId: bob.id,
      productId: yearly.id,
      interval: "year",
      amount: 12_000,
      startedAt: at("2025-03-03T10:00:00Z"),
      canceledAt: at("2025-03-20T10:00:00Z"),
      endsAt: at("2026-03-03T10:00:00Z"),
    });
    await subscription(api.knex, org.id, {
      customerId: bob.id,
      productId: monthly.id,
      interval: "month",
      amount: 500,
      startedAt: at("2025-01-01T00:00:00Z"),
      endedAt: at("2025-03-02T00:00:00Z"),
    });
    const order = (customerId: string, productId: string, created: string, subtotal: number, extra: Record<string, unknown> = {}) =>
      createOrder(api.knex, org.id, { customerId, productId }, { subtotal_amount: subtotal, created_at: at(created), ...extra });
    await order(alice.id, ebook.id, "2025-02-20T10:00:00Z", 700); // before: cumulative only
    await order(alice.id, ebook.id, "2025-03-02T09:00:00Z", 2000, {
      discount_amount: 500,
      tax_amount: 300,
      refunded_amount: 400,
      status: "partially_refunded",
    });
    await order(alice.id, monthly.id, "2025-03-02T10:00:00Z", 1000, { subscription_id: a, billing_reason: "subscription_create" });
    await order(bob.id, yearly.id, "2025-03-03T10:00:00Z", 12_000, { subscription_id: b, billing_reason: "subscription_create" });
    await order(alice.id, monthly.id, "2025-04-02T10:00:00Z", 1000, { subscription_id: a, billing_reason: "subscription_cycle" });
    await order(bob.id, ebook.id, "2025-03-04T00:00:00Z", 999, { status: "pending" }); // unpaid: not counted
    await checkout(api.knex, org.id, {
      productId: ebook.id,
      priceId: ebook.priceId,
      customerId: alice.id,
      status: "succeeded",
      createdAt: at("2025-03-02T08:00:00Z"),
    });
    await checkout(api.knex, org.id, {
      productId: ebook.id,
      priceId: ebook.priceId,
      customerId: null,
      status: "expired",
      createdAt: at("2025-03-02T08:30:00Z"),
    });
    await checkout(api.knex, org.id, {
      productId: monthly.id,
      priceId: monthly.priceId,
      customerId: null,
      status: "open",
      createdAt: at("2025-03-05T08:30:00Z"),
    });

    const days = await metrics(polar, { start: "2025-03-01", end: "2025-03-05", interval: "day" });
    expect(days.periods.map((p) => p.timestamp.toISOString())).toEqual(
      ["01", "02", "03", "04", "05"].map((d) => `2025-03-${d}T00:00:00.000Z`),
    );
    expect(series(days, "orders")).toEqual([0, 2, 1, 0, 0]);
    expect(series(days, "revenue")).toEqual([0, 2500, 12_000, 0, 0]);
    expect(series(days, "netRevenue")).toEqual([0, 2100, 12_000, 0, 0]);
    expect(series(days, "cumulativeRevenue")).toEqual([700, 3200, 15_200, 15_200, 15_200]);
    expect(series(days, "netCumulativeRevenue")).toEqual([700, 2800, 14_800, 14_800, 14_800]);
    expect(series(days, "averageOrderValue")).toEqual([0, 1250, 12_000, 0, 0]);
    expect(series(days, "netAverageOrderValue")).toEqual([0, 1050, 12_000, 0, 0]);
    expect(series(days, "oneTimeProducts")).toEqual([0, 1, 0, 0, 0]);
    expect(series(days, "oneTimeProductsRevenue")).toEqual([0, 1500, 0, 0, 0]);
    expect(series(days, "oneTimeProductsNetRevenue")).toEqual([0, 1100, 0, 0, 0]);
    expect(series(days, "newSubscriptions")).toEqual([0, 1, 1, 0, 0]);
    expect(series(days, "newSubscriptionsRevenue")).toEqual([0, 1000, 12_000, 0, 0]);
    expect(series(days, "newSubscriptionsNetRevenue")).toEqual([0, 1000, 12_000, 0, 0]);
    expect(series(days, "renewedSubscriptions")).toEqual([0, 0, 0, 0, 0]);
    expect(series(days, "activeSubscriptions")).toEqual([1, 1, 2, 2, 2]);
    expect(series(days, "monthlyRecurringRevenue")).toEqual([500, 1000, 2000, 2000, 2000]);
    expect(series(days, "committedMonthlyRecurringRevenue")).toEqual([500, 1000, 2000, 2000, 2000]);
    expect(series(days, "checkouts")).toEqual([0, 2, 0, 0, 1]);
    expect(series(days, "succeededCheckouts")).toEqual([0, 1, 0, 0, 0]);
    expect(series(days, "checkoutsConversion")).toEqual([0, 0.5, 0, 0, 0]);
    expect(days.totals).toMatchObject({
      orders: 3,
      revenue: 14_500,
      cumulativeRevenue: 15_200,
      averageOrderValue: 4834,
      activeSubscriptions: 2,
      monthlyRecurringRevenue: 2000,
      checkouts: 3,
      checkoutsConversion: 1 / 3,
    });
    expect(Object.keys(days.metrics).sort()).toEqual([...SLUGS].sort());
    expect(days.metrics.monthlyRecurringRevenue).toEqual({
      slug: "monthly_recurring_revenue",
      displayName: "Monthly Recurring Revenue",
      type: "currency",
    });
    expect(days.metrics.checkoutsConversion.type).toBe("percentage");

    const months = await metrics(polar, { start: "2025-03-01", end: "2025-04-30", interval: "month" });
    expect(series(months, "renewedSubscriptions")).toEqual([0, 1]);
    expect(series(months, "renewedSubscriptionsRevenue")).toEqual([0, 1000]);
    // Bob's cancellation (Mar 20) takes his subscription out of the committed MRR from March.
    expect(series(months, "monthlyRecurringRevenue")).toEqual([2000, 2000]);
    expect(series(months, "committedMonthlyRecurringRevenue")).toEqual([1000, 1000]);
    expect(months.totals).toMatchObject({ renewedSubscriptions: 1, monthlyRecurringRevenue: 2000 });

    // Filters: product, billing type, customer.
    const once = await metrics(polar, { start: "2025-03-01", end: "2025-03-05", interval: "day", billingType: ["one_time"] });
    expect(once.totals).toMatchObject({ orders: 1, revenue: 1500, activeSubscriptions: 0, checkouts: 2 });
    const recurring = await metrics(polar, { start: "2025-03-01", end: "2025-03-05", interval: "day", billingType: ["recurring"] });
    expect(recurring.totals).toMatchObject({ orders: 2, revenue: 13_000, activeSubscriptions: 2, checkouts: 1 });
    const yearlyOnly = await metrics(polar, { start: "2025-03-01", end: "2025-03-05", interval: "day", productId: [yearly.id] });
    expect(yearlyOnly.totals).toMatchObject({ orders: 1, revenue: 12_000, monthlyRecurringRevenue: 1000, checkouts: 0 });
    const bobs = await metrics(polar, { start: "2025-03-01", end: "2025-03-05", interval: "day", customerId: [bob.id] });
    expect(bobs.totals).toMatchObject({ orders: 1, activeSubscriptions: 1, checkouts: 0 });
    expect(series(bobs, "activeSubscriptions")).toEqual([1, 0, 1, 1, 1]);
    // In New York, Mar 2 09:00 UTC is still Mar 2 but 03:00 on Mar 2 is Mar 1.
    const ny = await metrics(polar, { start: "2025-03-01", end: "2025-03-03", interval: "day", timezone: "America/New_York" });
    expect(ny.periods[0].timestamp.toISOString()).toBe("2025-03-01T05:00:00.000Z");
    expect(series(ny, "checkouts")).toEqual([0, 2, 0]);
  });

  it("computes and returns only the metrics asked for", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const alice = await createCustomer(api.knex, org.id);
    const ebook = await product(api.knex, org.id, null);
    await createOrder(
      api.knex,
      org.id,
      { customerId: alice.id, productId: ebook.id },
      { subtotal_amount: 2000, created_at: at("2025-03-02T09:00:00Z") },
    );
    await checkout(api.knex, org.id, {
      productId: ebook.id,
      priceId: ebook.priceId,
      customerId: alice.id,
      status: "succeeded",
      createdAt: at("2025-03-02T08:00:00Z"),
    });
    const range = { startDate: new RFCDate049("2025-03-01"), endDate: new RFCDate049("2025-03-03"), interval: "day" as const };
    const polar = api.client049(token);
    const all = await polar.metrics.get(range);
    const some = await polar.metrics.get({ ...range, metrics: ["revenue", "checkouts_conversion"] });
    expect(some.periods.map((p) => Object.keys(p).sort())).toEqual([0, 1, 2].map(() => ["checkoutsConversion", "revenue", "timestamp"]));
    expect(some.periods.map((p) => [p.revenue, p.checkoutsConversion])).toEqual(all.periods.map((p) => [p.revenue, p.checkoutsConversion]));
    expect(some.periods[1]).toMatchObject({ revenue: 2000, checkoutsConversion: 1 });
    expect(some.totals).toEqual({ revenue: 2000, checkoutsConversion: 1 });
    expect(Object.keys(some.metrics).sort()).toEqual(["checkoutsConversion", "revenue"]);
    // Without the parameter, all 31: the 22 and the nine cancellation series.
    const CANCELED = [
      "CustomerService",
      "LowQuality",
      "MissingFeatures",
      "SwitchedService",
      "TooComplex",
      "TooExpensive",
      "Unused",
      "Other",
    ];
    expect(Object.keys(all.totals).sort()).toEqual(
      [...SLUGS, "canceledSubscriptions", ...CANCELED.map((r) => `canceledSubscriptions${r}`)].sort(),
    );
    const err = await rejects(api.client049(token).metrics.get({ ...range, metrics: ["no_such_metric"] }), HTTPValidationError049);
    expect(err.detail?.[0].loc).toEqual(["query", "metrics", 0]);
  });

  it("refuses bad ranges, dates and zones with 422 and sees only the caller's data", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    await rejects(metrics(polar, { start: "2025-03-10", end: "2025-03-01", interval: "day" }), HTTPValidationError);
    await rejects(metrics(polar, { start: "2025-01-01", end: "2025-01-09", interval: "hour" }), HTTPValidationError);
    await rejects(metrics(polar, { start: "2022-12-31", end: "2023-01-02", interval: "day" }), HTTPValidationError);
    const zone = await rejects(
      metrics(polar, { start: "2025-01-01", end: "2025-01-02", interval: "day", timezone: "Nowhere/Else" }),
      HTTPValidationError,
    );
    expect(zone.data$.detail?.[0].loc).toEqual(["query", "timezone"]);
    const raw = await fetch(`${api.url}/v1/metrics/?start_date=2025-02-30&end_date=2025-03-01&interval=day`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(raw.status).toBe(422);
    const missing = await fetch(`${api.url}/v1/metrics/?start_date=2025-02-01&interval=day`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(422);

    const other = await orgWithToken(api.knex);
    const c = await createCustomer(api.knex, other.org.id);
    const p = await product(api.knex, other.org.id, null);
    await createOrder(api.knex, other.org.id, { customerId: c.id, productId: p.id }, { created_at: at("2025-03-02T00:00:00Z") });
    expect((await metrics(polar, { start: "2025-03-01", end: "2025-03-03", interval: "day" })).totals.orders).toBe(0);
    expect((await metrics(api.client(other.token), { start: "2025-03-01", end: "2025-03-03", interval: "day" })).totals.orders).toBe(1);
    const foreign = await polar.metrics.get({
      startDate: new RFCDate("2025-03-01"),
      endDate: new RFCDate("2025-03-03"),
      interval: "day",
      organizationId: other.org.id,
    });
    expect(foreign.totals.orders).toBe(0);
    const noScope = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    expect((await rejects(api.client(noScope.token).metrics.limits(), SDKError)).statusCode).toBe(403);
  });

  describe("against a plain recomputation", () => {
    const WINDOW_START = Date.parse("2025-02-20T00:00:00Z");
    const WINDOW_MS = 60 * 86_400_000;
    const time = fc.integer({ min: 0, max: WINDOW_MS / 60_000 }).map((m) => WINDOW_START + m * 60_000);
    const orderArb = fc.record({
      product: fc.integer({ min: 0, max: 2 }),
      customer: fc.integer({ min: 0, max: 1 }),
      created: time,
      subtotal: fc.integer({ min: 0, max: 5000 }),
      discount: fc.integer({ min: 0, max: 500 }),
      refundedShare: fc.constantFrom(0, 0, 0.5, 1),
      status: fc.constantFrom("paid", "paid", "pending"),
      subscription: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    });
    const subArb = fc.record({
      product: fc.integer({ min: 1, max: 2 }),
      customer: fc.integer({ min: 0, max: 1 }),
      started: time,
      amount: fc.integer({ min: 100, max: 50_000 }),
      end: fc.option(time, { nil: null }),
      ended: fc.boolean(),
      canceled: fc.option(time, { nil: null }),
    });
    const checkoutArb = fc.record({
      product: fc.integer({ min: 0, max: 2 }),
      customer: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
      created: time,
      status: fc.constantFrom("open", "expired", "succeeded", "succeeded", "failed"),
    });
    const RANGES: Record<Unit, { start: string; end: string }> = {
      hour: { start: "2025-03-08", end: "2025-03-10" },
      day: { start: "2025-03-05", end: "2025-04-05" },
      week: { start: "2025-03-05", end: "2025-04-05" },
      month: { start: "2025-03-01", end: "2025-04-30" },
      // a year interval needs 366 days at least
      year: { start: "2025-01-01", end: "2026-01-02" },
    };
    const monthly = (amount: number, interval: string) =>
      interval === "month"
        ? amount
        : interval === "year"
          ? Math.round(amount / 12)
          : interval === "week"
            ? Math.round((amount * 52) / 12)
            : Math.round((amount * 365) / 12);

    it("matches every series and total for random histories", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(orderArb, { maxLength: 25 }),
          fc.array(subArb, { maxLength: 6 }),
          fc.array(checkoutArb, { maxLength: 12 }),
          fc.constantFrom<Unit>("hour", "day", "week", "month", "year"),
          fc.constantFrom("UTC", "America/New_York", "Asia/Kolkata", "Europe/Berlin"),
          fc.constantFrom<"none" | "product" | "one_time" | "recurring" | "customer">(
            "none",
            "product",
            "one_time",
            "recurring",
            "customer",
          ),
          fc.constantFrom("month", "year", "week", "day"),
          async (orders, subs, checkouts, unit, tz, filter, interval2) => {
            const { org, token } = await orgWithToken(api.knex);
            const polar = api.client(token);
            const customers = [await createCustomer(api.knex, org.id), await createCustomer(api.knex, org.id)];
            const products = [
              await product(api.knex, org.id, null),
              await product(api.knex, org.id, "month"),
              await product(api.knex, org.id, interval2 as "month"),
            ];
            const subRows = await Promise.all(
              subs.map(async (s) => {
                const end = s.end !== null && s.end > s.started ? s.end : null;
                const row = {
                  ...s,
                  interval: products[s.product].interval!,
                  endsAt: end !== null && !s.ended ? end : null,
                  endedAt: end !== null && s.ended ? end : null,
                  canceledAt: s.canceled !== null && s.canceled > s.started ? s.canceled : null,
                };
                const id = await subscription(api.knex, org.id, {
                  customerId: customers[s.customer].id,
                  productId: products[s.product].id,
                  interval: row.interval,
                  amount: s.amount,
                  startedAt: new Date(s.started),
                  endsAt: row.endsAt ? new Date(row.endsAt) : null,
                  endedAt: row.endedAt ? new Date(row.endedAt) : null,
                  canceledAt: row.canceledAt ? new Date(row.canceledAt) : null,
                });
                return { ...row, id };
              }),
            );
            const orderRows = orders.map((o) => {
              const sub = o.subscription !== null && o.subscription < subRows.length ? subRows[o.subscription] : null;
              const net = Math.max(0, o.subtotal - o.discount);
              const refunded = Math.floor(net * o.refundedShare);
              const status =
                o.status === "pending" ? "pending" : refunded === 0 ? "paid" : refunded === net ? "refunded" : "partially_refunded";
              return {
                ...o,
                sub,
                discount: o.subtotal - net,
                refunded,
                status,
                product: sub ? sub.product : o.product,
                customer: sub ? sub.customer : o.customer,
              };
            });
            for (const o of orderRows) {
              await createOrder(
                api.knex,
                org.id,
                { customerId: customers[o.customer].id, productId: products[o.product].id },
                {
                  subtotal_amount: o.subtotal,
                  discount_amount: o.discount,
                  refunded_amount: o.refunded,
                  status: o.status,
                  created_at: new Date(o.created),
                  subscription_id: o.sub?.id ?? null,
                  billing_reason: o.sub ? "subscription_cycle" : "purchase",
                },
              );
            }
            for (const c of checkouts) {
              await checkout(api.knex, org.id, {
                productId: products[c.product].id,
                priceId: products[c.product].priceId,
                customerId: c.customer === null ? null : customers[c.customer].id,
                status: c.status,
                createdAt: new Date(c.created),
              });
            }

            // Which records a filter keeps.
            const keepProduct = (p: number) =>
              filter === "product"
                ? p === 1
                : filter === "one_time"
                  ? products[p].interval === null
                  : filter === "recurring"
                    ? products[p].interval !== null
                    : true;
            const keepCustomer = (c: number | null) => (filter === "customer" ? c === 0 : true);
            const res = await metrics(polar, {
              ...RANGES[unit],
              interval: unit,
              timezone: tz,
              ...(filter === "product" ? { productId: [products[1].id] } : {}),
              ...(filter === "one_time" ? { billingType: ["one_time" as const] } : {}),
              ...(filter === "recurring" ? { billingType: ["recurring" as const] } : {}),
              ...(filter === "customer" ? { customerId: [customers[0].id] } : {}),
            });

            // The buckets: every local unit from the start date's midnight to the end date's end.
            const first = Date.parse(`${RANGES[unit].start}T00:00:00Z`);
            const last = Date.parse(`${RANGES[unit].end}T00:00:00Z`);
            const expected: number[] = [];
            for (let d = first; d <= last; d += 86_400_000) {
              const day = new Date(d);
              const midnight = localMidnight(tz, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
              const next = localMidnight(tz, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate() + 1);
              if (unit === "hour") for (let h = midnight; h < next; h += 3_600_000) expected.push(bucketStart(tz, "hour", h));
              else expected.push(bucketStart(tz, unit, midnight));
            }
            const buckets = [...new Set(expected)];
            expect(res.periods.map((p) => bucketStart(tz, unit, p.timestamp.getTime()))).toEqual(buckets);

            const b = (t: number) => bucketStart(tz, unit, t);
            const paid = orderRows.filter((o) => o.status !== "pending" && keepProduct(o.product) && keepCustomer(o.customer));
            const netOf = (o: (typeof paid)[number]) => o.subtotal - o.discount;
            const liveSubs = filter === "one_time" ? [] : subRows.filter((s) => keepProduct(s.product) && keepCustomer(s.customer));
            const keptCheckouts = checkouts.filter((c) => keepProduct(c.product) && keepCustomer(c.customer));
            const periods: Values[] = buckets.map((B) => {
              const os = paid.filter((o) => b(o.created) === B);
              const upTo = paid.filter((o) => b(o.created) <= B);
              const sum = (xs: typeof paid, f: (o: (typeof paid)[number]) => number) => xs.reduce((n, o) => n + f(o), 0);
              const isNew = (o: (typeof paid)[number]) => o.sub !== null && b(o.sub.started) === b(o.created);
              const renewed = os.filter((o) => o.sub !== null && !isNew(o));
              const active = liveSubs.filter((s) => {
                const end = s.endedAt ?? s.endsAt;
                return b(s.started) <= B && (end === null || b(end) > B);
              });
              const committed = liveSubs.filter((s) => {
                const ends = [s.endedAt ?? s.endsAt, s.canceledAt].filter((x): x is number => x !== null);
                const stop = ends.length ? Math.max(b(Math.min(...ends)), b(s.started)) : null;
                return b(s.started) <= B && (stop === null || stop > B);
              });
              const cs = keptCheckouts.filter((c) => b(c.created) === B);
              const succeeded = cs.filter((c) => c.status === "succeeded").length;
              return {
                orders: os.length,
                revenue: sum(os, netOf),
                netRevenue: sum(os, (o) => netOf(o) - o.refunded),
                cumulativeRevenue: sum(upTo, netOf),
                netCumulativeRevenue: sum(upTo, (o) => netOf(o) - o.refunded),
                averageOrderValue: os.length ? Math.ceil(sum(os, netOf) / os.length) : 0,
                netAverageOrderValue: os.length ? Math.ceil(sum(os, (o) => netOf(o) - o.refunded) / os.length) : 0,
                oneTimeProducts: os.filter((o) => o.sub === null).length,
                oneTimeProductsRevenue: sum(
                  os.filter((o) => o.sub === null),
                  netOf,
                ),
                oneTimeProductsNetRevenue: sum(
                  os.filter((o) => o.sub === null),
                  (o) => netOf(o) - o.refunded,
                ),
                newSubscriptions: liveSubs.filter((s) => b(s.started) === B).length,
                newSubscriptionsRevenue: sum(os.filter(isNew), netOf),
                newSubscriptionsNetRevenue: sum(os.filter(isNew), (o) => netOf(o) - o.refunded),
                renewedSubscriptions: new Set(renewed.map((o) => o.sub!.id)).size,
                renewedSubscriptionsRevenue: sum(renewed, netOf),
                renewedSubscriptionsNetRevenue: sum(renewed, (o) => netOf(o) - o.refunded),
                activeSubscriptions: active.length,
                monthlyRecurringRevenue: active.reduce((n, s) => n + monthly(s.amount, s.interval), 0),
                committedMonthlyRecurringRevenue: committed.reduce((n, s) => n + monthly(s.amount, s.interval), 0),
                checkouts: cs.length,
                succeededCheckouts: succeeded,
                checkoutsConversion: cs.length ? succeeded / cs.length : 0,
              };
            });
            for (const slug of SLUGS) {
              expect(series(res, slug), `${slug} ${unit} ${tz} ${filter}`).toEqual(periods.map((p) => p[slug]));
            }
            const total = (slug: Slug) => periods.reduce((n, p) => n + p[slug], 0);
            const lastOf = (slug: Slug) => periods[periods.length - 1][slug];
            const totalOrders = total("orders");
            const totalCheckouts = total("checkouts");
            for (const slug of SLUGS) {
              const want = [
                "cumulativeRevenue",
                "netCumulativeRevenue",
                "activeSubscriptions",
                "monthlyRecurringRevenue",
                "committedMonthlyRecurringRevenue",
              ].includes(slug)
                ? lastOf(slug)
                : slug === "averageOrderValue"
                  ? totalOrders
                    ? Math.ceil(total("revenue") / totalOrders)
                    : 0
                  : slug === "netAverageOrderValue"
                    ? totalOrders
                      ? Math.ceil(total("netRevenue") / totalOrders)
                      : 0
                    : slug === "checkoutsConversion"
                      ? totalCheckouts
                        ? total("succeededCheckouts") / totalCheckouts
                        : 0
                      : total(slug);
              expect(res.totals[slug], `total ${slug}`).toBeCloseTo(want, 9);
            }
          },
        ),
        { numRuns: 25 },
      );
    }, 300_000);
  });
});
