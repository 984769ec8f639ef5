// The tax report (GET /v1/tax/report, a Borealis extension): paid orders' net and tax
// per month or quarter, currency, country, rate and taxability reason, with refunds netted out in
// the period they were made, against their order's country and rate.
import { beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

const rate = (basis_points: number, display_name: string, country: string) => ({
  tax_rate: JSON.stringify({ basis_points, display_name, country, state: null }),
  taxability_reason: basis_points ? "standard_rated" : "reverse_charge",
});
const FR = rate(2000, "VAT 20% (France)", "FR");
const DE = rate(1900, "VAT 19% (Germany)", "DE");
const GB = rate(2000, "VAT 20% (United Kingdom)", "GB");
const RC = rate(0, "Reverse charge", "DE");
const address = (country: string) => ({ line1: null, line2: null, postal_code: null, city: null, state: null, country });
const row = (fields: Record<string, unknown>) => ({
  currency: "eur",
  state: null,
  orders: 0,
  sales_net_amount: 0,
  sales_tax_amount: 0,
  refunds: 0,
  refunded_net_amount: 0,
  refunded_tax_amount: 0,
  ...fields,
});

describe("tax report", () => {
  let token: string;

  const report = async (query: string, bearer = token) => {
    const res = await fetch(`${api.url}/v1/tax/report?${query}`, { headers: { authorization: `Bearer ${bearer}` } });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    const made = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    token = made.token;
    const orgId = made.org.id;
    const customerId = (await createCustomer(api.knex, orgId)).id;
    const productId = (await createProductWithPrice(api.knex, orgId)).product.id;
    const order = (at: string, net: number, tax: number, country: string, taxed: object, extra: Record<string, unknown> = {}) =>
      createOrder(
        api.knex,
        orgId,
        { customerId, productId },
        {
          created_at: new Date(at),
          currency: "eur",
          subtotal_amount: net,
          tax_amount: tax,
          billing_address: address(country),
          ...taxed,
          ...extra,
        },
      );
    const refund = (orderId: string, at: string, amount: number, tax: number, status = "succeeded") =>
      api.knex("refunds").insert({
        organization_id: orgId,
        customer_id: customerId,
        order_id: orderId,
        status,
        reason: "customer_request",
        amount,
        tax_amount: tax,
        currency: "eur",
        created_at: new Date(at),
      });

    const a = await order("2026-01-10T12:00:00Z", 1000, 200, "FR", FR);
    const b = await order("2026-01-20T12:00:00Z", 2500, 500, "FR", FR, { discount_amount: 500 });
    await order("2026-01-31T23:30:00Z", 1000, 190, "DE", DE);
    await order("2026-01-15T09:00:00Z", 5000, 0, "DE", RC);
    await order("2026-01-12T09:00:00Z", 9999, 1999, "FR", FR, { status: "pending" });
    await order("2026-02-01T00:00:00Z", 1000, 200, "GB", GB, { currency: "gbp" });
    await order("2026-02-03T10:00:00Z", 1000, 200, "FR", FR);
    await order("2026-02-10T10:00:00Z", 700, 0, "US", {});
    await order("2025-12-31T23:59:59Z", 1000, 200, "FR", FR);
    await order("2026-03-01T00:00:00Z", 1000, 200, "FR", FR);
    await refund(a.id, "2026-02-05T10:00:00Z", 500, 100);
    await refund(b.id, "2026-02-06T10:00:00Z", 1000, 250, "pending");
    await refund(b.id, "2026-03-02T10:00:00Z", 1000, 250);
    // Another organization's French order is not this one's.
    const other = await orgWithToken(api.knex);
    const oc = await createCustomer(api.knex, other.org.id);
    const op = await createProductWithPrice(api.knex, other.org.id);
    await createOrder(
      api.knex,
      other.org.id,
      { customerId: oc.id, productId: op.product.id },
      {
        created_at: new Date("2026-01-10T00:00:00Z"),
        currency: "eur",
        tax_amount: 500,
        billing_address: address("FR"),
        ...FR,
      },
    );
  }, 120_000);

  it("sums each month's orders per country, rate and reason, and nets out refunds in the month they were made", async () => {
    const { status, body } = await report("start_date=2026-01-01&end_date=2026-02-28&interval=month");
    expect(status).toBe(200);
    expect(body).toEqual({
      start_date: "2026-01-01",
      end_date: "2026-02-28",
      interval: "month",
      periods: [
        {
          period: "2026-01",
          start_date: "2026-01-01",
          end_date: "2026-01-31",
          rows: [
            row({
              country: "DE",
              rate_basis_points: 1900,
              display_name: "VAT 19% (Germany)",
              taxability_reason: "standard_rated",
              orders: 1,
              sales_net_amount: 1000,
              sales_tax_amount: 190,
              net_amount: 1000,
              tax_amount: 190,
            }),
            row({
              country: "DE",
              rate_basis_points: 0,
              display_name: "Reverse charge",
              taxability_reason: "reverse_charge",
              orders: 1,
              sales_net_amount: 5000,
              net_amount: 5000,
              tax_amount: 0,
            }),
            // 1000 + (2500 − 500 discount).
            row({
              country: "FR",
              rate_basis_points: 2000,
              display_name: "VAT 20% (France)",
              taxability_reason: "standard_rated",
              orders: 2,
              sales_net_amount: 3000,
              sales_tax_amount: 700,
              net_amount: 3000,
              tax_amount: 700,
            }),
          ],
        },
        {
          period: "2026-02",
          start_date: "2026-02-01",
          end_date: "2026-02-28",
          rows: [
            // January's order refunded in February: the refund is February's.
            row({
              country: "FR",
              rate_basis_points: 2000,
              display_name: "VAT 20% (France)",
              taxability_reason: "standard_rated",
              orders: 1,
              sales_net_amount: 1000,
              sales_tax_amount: 200,
              refunds: 1,
              refunded_net_amount: 500,
              refunded_tax_amount: 100,
              net_amount: 500,
              tax_amount: 100,
            }),
            row({
              country: "US",
              rate_basis_points: 0,
              display_name: null,
              taxability_reason: null,
              orders: 1,
              sales_net_amount: 700,
              net_amount: 700,
              tax_amount: 0,
            }),
            row({
              currency: "gbp",
              country: "GB",
              rate_basis_points: 2000,
              display_name: "VAT 20% (United Kingdom)",
              taxability_reason: "standard_rated",
              orders: 1,
              sales_net_amount: 1000,
              sales_tax_amount: 200,
              net_amount: 1000,
              tax_amount: 200,
            }),
          ],
        },
      ],
    });
  });

  it("reports a quarter clipped to the range, days counted in UTC", async () => {
    const { status, body } = await report("start_date=2026-01-15&end_date=2026-02-28&interval=quarter");
    expect(status).toBe(200);
    expect(body.periods).toHaveLength(1);
    const [q1] = body.periods;
    expect(q1).toMatchObject({ period: "2026-Q1", start_date: "2026-01-15", end_date: "2026-02-28" });
    const fr = q1.rows.find((r: { country: string }) => r.country === "FR");
    // The order of January 10 is before the range; its refund of February 5 is in it.
    expect(fr).toMatchObject({
      orders: 2,
      sales_net_amount: 3000,
      sales_tax_amount: 700,
      refunds: 1,
      refunded_net_amount: 500,
      refunded_tax_amount: 100,
      net_amount: 2500,
      tax_amount: 600,
    });
    expect(q1.rows.map((r: { country: string; rate_basis_points: number }) => `${r.country} ${r.rate_basis_points}`)).toEqual([
      "DE 1900",
      "DE 0",
      "FR 2000",
      "US 0",
      "GB 2000",
    ]);
  });

  it("lists empty periods, and defaults to months", async () => {
    const { body } = await report("start_date=2025-11-20&end_date=2026-01-05");
    expect(body.interval).toBe("month");
    expect(
      body.periods.map((p: { period: string; start_date: string; end_date: string; rows: unknown[] }) => [
        p.period,
        p.start_date,
        p.end_date,
        p.rows.length,
      ]),
    ).toEqual([
      ["2025-11", "2025-11-20", "2025-11-30", 0],
      ["2025-12", "2025-12-01", "2025-12-31", 1],
      ["2026-01", "2026-01-01", "2026-01-05", 0],
    ]);
  });

  it("answers 422 for a bad range and 403 without orders:read", async () => {
    const backwards = await report("start_date=2026-02-01&end_date=2026-01-01");
    expect(backwards.status).toBe(422);
    expect(backwards.body.detail[0].loc).toEqual(["query", "end_date"]);
    expect((await report("start_date=2026-02-30&end_date=2026-03-01")).status).toBe(422);
    expect((await report("start_date=2020-01-01&end_date=2026-01-01")).status).toBe(422);
    expect((await report("start_date=2026-01-01&end_date=2026-02-01&interval=week")).status).toBe(422);
    const other = await orgWithToken(api.knex, { scopes: ["products:read"] });
    expect((await report("start_date=2026-01-01&end_date=2026-02-01", other.token)).status).toBe(403);
  });
});
