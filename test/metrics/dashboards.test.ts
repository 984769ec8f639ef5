// Saved metric dashboards and the metrics CSV export through the 0.49 client: create, list, get,
// update, delete; another organization's dashboard is a 404; bad bodies and parameters are 422s;
// the read and write scopes are each required.
import { describe, expect, it } from "vitest";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { RFCDate } from "polar-sdk-049/types/rfcdate.js";
import { createCustomer, createOrder, createProductWithPrice, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

/** The `loc` of the first issue of the 422 the call must fail with. */
async function locOf(call: Promise<unknown>): Promise<unknown[] | undefined> {
  return (await rejects(call, HTTPValidationError)).detail?.[0]?.loc;
}

describe("metric dashboards", () => {
  it("creates, lists, gets, updates and deletes the organization's dashboards", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const revenue = await polar.metrics.createDashboard({ name: "  Revenue  ", metrics: ["revenue", "net_revenue"] });
    expect(revenue).toMatchObject({ name: "Revenue", metrics: ["revenue", "net_revenue"], organizationId: org.id, modifiedAt: null });
    expect(revenue.createdAt).toBeInstanceOf(Date);
    const empty = await polar.metrics.createDashboard({ name: "Empty", organizationId: org.id });
    expect(empty.metrics).toEqual([]);

    expect(await polar.metrics.listDashboards({})).toEqual([revenue, empty]);
    expect(await polar.metrics.listDashboards({ organizationId: org.id })).toEqual([revenue, empty]);
    expect(await polar.metrics.getDashboard({ id: revenue.id })).toEqual(revenue);

    const renamed = await polar.metrics.updateDashboard({ id: revenue.id, metricDashboardUpdate: { name: "Money" } });
    expect(renamed).toMatchObject({ name: "Money", metrics: ["revenue", "net_revenue"] });
    expect(renamed.modifiedAt).toBeInstanceOf(Date);
    const changed = await polar.metrics.updateDashboard({
      id: revenue.id,
      metricDashboardUpdate: { metrics: ["orders"], name: null },
    });
    expect(changed).toMatchObject({ name: "Money", metrics: ["orders"] });

    await polar.metrics.deleteDashboard({ id: empty.id });
    expect((await polar.metrics.listDashboards({})).map((d) => d.id)).toEqual([revenue.id]);
    expect((await rejects(polar.metrics.getDashboard({ id: empty.id }), SDKError)).statusCode).toBe(404);
    expect((await rejects(polar.metrics.deleteDashboard({ id: empty.id }), SDKError)).statusCode).toBe(404);
  });

  it("hides another organization's dashboards: 404 by id, absent from lists", async () => {
    const mine = await orgWithToken(api.knex);
    const theirs = await orgWithToken(api.knex);
    const polar = api.client049(mine.token);
    const secret = await api.client049(theirs.token).metrics.createDashboard({ name: "Theirs", metrics: ["orders"] });

    expect(await polar.metrics.listDashboards({})).toEqual([]);
    expect(await polar.metrics.listDashboards({ organizationId: theirs.org.id })).toEqual([]);
    for (const call of [
      () => polar.metrics.getDashboard({ id: secret.id }),
      () => polar.metrics.updateDashboard({ id: secret.id, metricDashboardUpdate: { name: "Mine now" } }),
      () => polar.metrics.deleteDashboard({ id: secret.id }),
      () => polar.metrics.getDashboard({ id: "not-a-uuid" }),
    ]) {
      expect((await rejects(call(), SDKError)).statusCode).toBe(404);
    }
    expect(await api.client049(theirs.token).metrics.getDashboard({ id: secret.id })).toEqual(secret);
  });

  it("refuses bad bodies with 422s where they went wrong", async () => {
    const { token } = await orgWithToken(api.knex);
    const other = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const cases: [Parameters<typeof polar.metrics.createDashboard>[0], (string | number)[]][] = [
      [{ name: "" }, ["body", "name"]],
      [{ name: "   " }, ["body", "name"]],
      [{ name: "Bad", metrics: ["revenue", "no_such_metric"] }, ["body", "metrics", 1]],
      [{ name: "Twice", metrics: ["orders", "orders"] }, ["body", "metrics"]],
      [{ name: "Many", metrics: Array.from({ length: 11 }, (_, i) => `m${i}`) }, ["body", "metrics"]],
      [{ name: "Elsewhere", organizationId: other.org.id }, ["body", "organization_id"]],
    ];
    for (const [body, loc] of cases) expect(await locOf(polar.metrics.createDashboard(body))).toEqual(loc);
    const made = await polar.metrics.createDashboard({ name: "Fine" });
    const update = polar.metrics.updateDashboard({ id: made.id, metricDashboardUpdate: { metrics: ["revenue", "bogus"] } });
    expect(await locOf(update)).toEqual(["body", "metrics", 1]);
    const blank = polar.metrics.updateDashboard({ id: made.id, metricDashboardUpdate: { name: " " } });
    expect(await locOf(blank)).toEqual(["body", "name"]);
    expect(await polar.metrics.getDashboard({ id: made.id })).toEqual(made);
  });

  it("needs metrics:read to read and metrics:write to change", async () => {
    const owner = await orgWithToken(api.knex);
    const made = await api.client049(owner.token).metrics.createDashboard({ name: "Shared" });
    const reader = api.client049((await orgWithToken(api.knex, { scopes: ["metrics:read"] })).token);
    expect(await reader.metrics.listDashboards({})).toEqual([]);
    expect((await rejects(reader.metrics.createDashboard({ name: "No" }), SDKError)).statusCode).toBe(403);
    expect((await rejects(reader.metrics.deleteDashboard({ id: made.id }), SDKError)).statusCode).toBe(403);
    const writer = api.client049((await orgWithToken(api.knex, { scopes: ["metrics:write"] })).token);
    expect((await rejects(writer.metrics.listDashboards({}), SDKError)).statusCode).toBe(403);
    expect((await writer.metrics.createDashboard({ name: "Yes" })).name).toBe("Yes");
    const none = api.client049((await orgWithToken(api.knex, { scopes: ["orders:read"] })).token);
    expect((await rejects(none.metrics.getDashboard({ id: made.id }), SDKError)).statusCode).toBe(403);
  });
});

describe("metrics export", () => {
  it("writes metrics:get's periods as CSV, a column per asked metric, in the asked time zone", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const customer = await createCustomer(api.knex, org.id);
    const { product } = await createProductWithPrice(api.knex, org.id);
    await createOrder(
      api.knex,
      org.id,
      { customerId: customer.id, productId: product.id },
      { created_at: new Date("2030-01-02T12:00:00Z") },
    );
    await createOrder(
      api.knex,
      org.id,
      { customerId: customer.id, productId: product.id },
      { created_at: new Date("2030-01-02T13:00:00Z"), subtotal_amount: 1500 },
    );
    const range = { startDate: new RFCDate("2030-01-01"), endDate: new RFCDate("2030-01-03"), interval: "day" as const };

    const csv = await polar.metrics.export({ ...range, metrics: ["revenue", "orders"] });
    // Columns in the metrics' own order, named as metrics:get names them.
    expect(csv.split("\r\n")).toEqual([
      "Timestamp,Orders,Revenue",
      "2030-01-01T00:00:00.000Z,0,0",
      "2030-01-02T00:00:00.000Z,2,4000",
      "2030-01-03T00:00:00.000Z,0,0",
      "",
    ]);
    const report = await polar.metrics.get({ ...range });
    const all = (await polar.metrics.export({ ...range })).split("\r\n");
    expect(all[0].split(",")).toHaveLength(1 + Object.keys(report.metrics).length);
    expect(all[0].split(",").slice(0, 4)).toEqual(["Timestamp", "Orders", "Revenue", "Net Revenue"]);
    expect(all).toHaveLength(report.periods.length + 2);

    const zoned = await polar.metrics.export({ ...range, timezone: "Asia/Kolkata", metrics: ["orders"] });
    expect(zoned.split("\r\n")[2]).toBe("2030-01-02T00:00:00.000+05:30,2");
  });

  it("refuses what metrics:get refuses with 422, and needs metrics:read", async () => {
    const { token } = await orgWithToken(api.knex);
    const polar = api.client049(token);
    const range = { startDate: new RFCDate("2030-01-01"), endDate: new RFCDate("2030-01-03"), interval: "day" as const };
    expect(await locOf(polar.metrics.export({ ...range, metrics: ["orders", "nope"] }))).toEqual(["query", "metrics", 1]);
    expect(await locOf(polar.metrics.export({ ...range, startDate: new RFCDate("2030-02-01") }))).toEqual(["query", "end_date"]);
    expect(await locOf(polar.metrics.export({ ...range, timezone: "Nowhere/Else" }))).toEqual(["query", "timezone"]);
    const narrow = api.client049((await orgWithToken(api.knex, { scopes: ["orders:read"] })).token);
    expect((await rejects(narrow.metrics.export(range), SDKError)).statusCode).toBe(403);
  });
});
