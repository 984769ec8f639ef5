// Discounts through the official client: the four shapes (fixed / percentage × once-forever /
// repeating), code uniqueness, dates, redemption limits, product restriction, updates (and what
// a redeemed discount can no longer change), soft delete, every filter and sort key, paging, the
// error contract and tenant isolation.
import { invalid } from "../harness/index.js";
import type { DiscountSortProperty } from "@polar-sh/sdk/models/components/discountsortproperty.js";
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import type { Discount } from "@polar-sh/sdk/models/components/discount.js";
import { collectPages, createDiscount, locOf, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["discounts"]["list"]>[0]): Promise<Discount[]> {
  return collectPages(await polar.discounts.list(req));
}

describe("discounts", () => {
  let polar: Polar;
  let orgId: string;
  let token: string;

  beforeAll(async () => {
    const made = await orgWithToken(api.knex);
    orgId = made.org.id;
    token = made.token;
    polar = api.client(token);
  });

  /** POST a raw body: the client refuses to send bodies its own schemas reject. */
  async function rawCreate(body: Record<string, unknown>): Promise<{ status: number; loc: unknown[] | undefined; locs: unknown[][] }> {
    const res = await fetch(`${api.url}/v1/discounts/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { detail?: { loc: unknown[] }[] };
    const locs = Array.isArray(json.detail) ? json.detail.map((d) => d.loc) : [];
    return { status: res.status, loc: locs[0], locs };
  }

  it("creates the four shapes and reads them back", async () => {
    const product = await polar.products.create({
      name: "Target",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 2000 }],
      metadata: { k: "v" },
    });
    const fixedOnce = await polar.discounts.create({
      name: "Five off",
      type: "fixed",
      duration: "once",
      amount: 500,
      code: "FIVEOFF",
      metadata: { campaign: "spring" },
    });
    expect(fixedOnce).toMatchObject({
      name: "Five off",
      type: "fixed",
      duration: "once",
      amount: 500,
      currency: "usd",
      code: "FIVEOFF",
      startsAt: null,
      endsAt: null,
      maxRedemptions: null,
      redemptionsCount: 0,
      organizationId: orgId,
      metadata: { campaign: "spring" },
      products: [],
      modifiedAt: null,
    });
    expect(fixedOnce).not.toHaveProperty("durationInMonths");
    expect(await polar.discounts.get({ id: fixedOnce.id })).toEqual(fixedOnce);

    const fixedForever = await polar.discounts.create({ name: "Two off forever", type: "fixed", duration: "forever", amount: 200 });
    expect(fixedForever).toMatchObject({ type: "fixed", duration: "forever", amount: 200, currency: "usd" });
    expect(fixedForever).not.toHaveProperty("durationInMonths");

    const fixedRepeat = await polar.discounts.create({
      name: "Ten euro x3",
      type: "fixed",
      duration: "repeating",
      durationInMonths: 3,
      amount: 1000,
      currency: "eur",
    });
    expect(fixedRepeat).toMatchObject({
      type: "fixed",
      duration: "repeating",
      durationInMonths: 3,
      amount: 1000,
      currency: "eur",
      code: null,
    });

    const startsAt = new Date("2030-01-01T00:00:00Z");
    const endsAt = new Date("2030-02-01T00:00:00Z");
    const pctForever = await polar.discounts.create({
      name: "Quarter off",
      type: "percentage",
      duration: "forever",
      basisPoints: 2500,
      startsAt,
      endsAt,
      maxRedemptions: 100,
      products: [product.id],
    });
    expect(pctForever).toMatchObject({ type: "percentage", duration: "forever", basisPoints: 2500, maxRedemptions: 100 });
    expect(pctForever.startsAt).toEqual(startsAt);
    expect(pctForever.endsAt).toEqual(endsAt);
    expect(pctForever.products).toEqual([
      expect.objectContaining({ id: product.id, name: "Target", isRecurring: true, metadata: { k: "v" } }),
    ]);
    expect(pctForever).not.toHaveProperty("amount");

    const pctRepeat = await polar.discounts.create({
      name: "Half for a year",
      type: "percentage",
      duration: "repeating",
      durationInMonths: 12,
      basisPoints: 5000,
    });
    expect(pctRepeat).toMatchObject({ type: "percentage", duration: "repeating", durationInMonths: 12, basisPoints: 5000 });
    expect((await polar.discounts.get({ id: pctRepeat.id })).id).toBe(pctRepeat.id);
  });

  it("shows a fixed discount's amount per currency and takes one as 0.49.0 sends it", async () => {
    const newer = api.client049(token);
    const made = await newer.discounts.create({ type: "fixed", duration: "once", name: "Five off", amounts: { usd: 500 } });
    expect(made).toMatchObject({ type: "fixed", amount: 500, currency: "usd", amounts: { usd: 500 } });
    // 0.34.17 creates one with amount and currency; 0.49.0 reads its amounts.
    const older = await polar.discounts.create({ type: "fixed", duration: "forever", name: "Euro off", amount: 300, currency: "eur" });
    expect(await newer.discounts.get({ id: older.id })).toMatchObject({ amount: 300, currency: "eur", amounts: { eur: 300 } });
    expect(await newer.discounts.update({ id: made.id, discountUpdate: { amounts: { usd: 700 } } })).toMatchObject({
      amount: 700,
      amounts: { usd: 700 },
    });
    expect(await newer.discounts.get({ id: made.id })).toMatchObject({ amounts: { usd: 700 } });

    // One currency per discount; both ways given must agree.
    expect((await rawCreate({ type: "fixed", duration: "once", name: "Two", amounts: { usd: 500, eur: 400 } })).loc).toEqual([
      "body",
      "amounts",
    ]);
    expect(
      (await rawCreate({ type: "fixed", duration: "once", name: "Odd", amount: 100, currency: "usd", amounts: { usd: 500 } })).loc,
    ).toEqual(["body", "amounts"]);
    expect((await rawCreate({ type: "fixed", duration: "once", name: "None" })).loc).toEqual(["body", "amount"]);
  });

  it("validates amounts, durations, codes, dates, limits and products", async () => {
    const other = await orgWithToken(api.knex);
    const foreignProduct = await api
      .client(other.token)
      .products.create({ name: "Foreign", recurringInterval: null, prices: [{ amountType: "free" }] });
    const base = { name: "Bad", duration: "once" };
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ ...base, type: "percentage", basis_points: 0 }, ["body", "basis_points"]],
      [{ ...base, type: "percentage", basis_points: 10001 }, ["body", "basis_points"]],
      [{ ...base, type: "fixed", amount: -1 }, ["body", "amount"]],
      [
        { name: "Bad", type: "percentage", basis_points: 100, duration: "repeating", duration_in_months: 0 },
        ["body", "duration_in_months"],
      ],
      [
        { name: "Bad", type: "percentage", basis_points: 100, duration: "repeating", duration_in_months: 1000 },
        ["body", "duration_in_months"],
      ],
      [{ ...base, type: "percentage", basis_points: 100, code: "no spaces" }, ["body", "code"]],
      [{ ...base, type: "percentage", basis_points: 100, code: "AB" }, ["body", "code"]],
      [{ ...base, type: "percentage", basis_points: 100, max_redemptions: 0 }, ["body", "max_redemptions"]],
      [
        { ...base, type: "percentage", basis_points: 100, starts_at: "2030-02-01T00:00:00Z", ends_at: "2030-01-01T00:00:00Z" },
        ["body", "ends_at"],
      ],
      [{ ...base, type: "percentage", basis_points: 100, products: [foreignProduct.id] }, ["body", "products", 0]],
      [{ ...base, type: "percentage", basis_points: 100, products: ["not-a-uuid"] }, ["body", "products", 0]],
      [{ ...base, name: "", type: "percentage", basis_points: 100 }, ["body", "name"]],
      [{ ...base, type: "percentage", basis_points: 100, organization_id: other.org.id }, ["body", "organization_id"]],
    ];
    for (const [body, loc] of cases) {
      const r = await rawCreate(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.loc, JSON.stringify(body)).toEqual(loc);
    }
    // Not an ISO 4217 currency: the contract's list refuses it (a discount's shapes are told apart
    // by their fields, so each shape that could fit says why; the currency is among them).
    const money = await rawCreate({ ...base, type: "fixed", amount: 100, currency: "dollars" });
    expect(money.status).toBe(422);
    expect(money.locs).toContainEqual(["body", "currency"]);
    // Missing required fields: the contract rejects them.
    for (const body of [
      { type: "fixed", duration: "once", amount: 1 },
      { name: "x", duration: "once" },
      { name: "x", type: "fixed", amount: 1 },
    ]) {
      expect((await rawCreate(body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await rawCreate({ name: "No amount", type: "fixed", duration: "once" })).status).toBe(422);
    expect((await rawCreate({ name: "No months", type: "fixed", amount: 100, duration: "repeating" })).status).toBe(422);
    // An empty code means no code.
    const noCode = await polar.discounts.create({ name: "API only", type: "percentage", duration: "once", basisPoints: 100, code: "" });
    expect(noCode.code).toBeNull();
  });

  it("keeps codes unique per organization, case-insensitively, and frees them on delete", async () => {
    const { token: t } = await orgWithToken(api.knex);
    const c = api.client(t);
    const a = await c.discounts.create({ name: "Summer", type: "percentage", duration: "once", basisPoints: 1000, code: "Summer25" });
    expect(
      await locOf(c.discounts.create({ name: "Clash", type: "percentage", duration: "once", basisPoints: 1000, code: "SUMMER25" })),
    ).toEqual(["body", "code"]);
    const b = await c.discounts.create({ name: "Winter", type: "percentage", duration: "once", basisPoints: 1000, code: "WINTER25" });
    expect(await locOf(c.discounts.update({ id: b.id, discountUpdate: { code: "summer25" } }))).toEqual(["body", "code"]);
    // Another organization may use the same code.
    expect(
      (await polar.discounts.create({ name: "Mine", type: "percentage", duration: "once", basisPoints: 1000, code: "SUMMER25" })).code,
    ).toBe("SUMMER25");

    await c.discounts.delete({ id: a.id });
    await rejects(c.discounts.get({ id: a.id }), ResourceNotFound);
    await rejects(c.discounts.update({ id: a.id, discountUpdate: { name: "Zombie" } }), ResourceNotFound);
    await rejects(c.discounts.delete({ id: a.id }), ResourceNotFound);
    expect((await api.knex("discounts").where({ id: a.id }).first()).deleted_at).not.toBeNull();
    expect((await c.discounts.update({ id: b.id, discountUpdate: { code: "summer25" } })).code).toBe("summer25");
  });

  it("updates fields, shapes and products", async () => {
    const p1 = await polar.products.create({ name: "Product one", recurringInterval: null, prices: [{ amountType: "free" }] });
    const p2 = await polar.products.create({ name: "Product two", recurringInterval: null, prices: [{ amountType: "free" }] });
    const d = await polar.discounts.create({
      name: "Editable",
      type: "fixed",
      duration: "once",
      amount: 300,
      products: [p1.id],
      metadata: { a: 1 },
    });
    const u1 = await polar.discounts.update({
      id: d.id,
      discountUpdate: {
        name: "Edited",
        code: "EDITED1",
        startsAt: new Date("2031-01-01T00:00:00Z"),
        endsAt: new Date("2031-06-01T00:00:00Z"),
        maxRedemptions: 5,
        products: [p2.id],
        metadata: { b: "2" },
        amount: 400,
        currency: "eur",
      },
    });
    expect(u1).toMatchObject({ name: "Edited", code: "EDITED1", maxRedemptions: 5, amount: 400, currency: "eur", metadata: { b: "2" } });
    expect(u1.products.map((p) => p.id)).toEqual([p2.id]);
    expect(u1.modifiedAt).toBeInstanceOf(Date);

    // Explicit nulls clear; absent fields stay.
    const u2 = await polar.discounts.update({ id: d.id, discountUpdate: { code: null, endsAt: null, maxRedemptions: null } });
    expect(u2).toMatchObject({ code: null, endsAt: null, maxRedemptions: null, name: "Edited", amount: 400 });
    expect(u2.startsAt).toEqual(new Date("2031-01-01T00:00:00Z"));
    expect(await locOf(polar.discounts.update({ id: d.id, discountUpdate: { endsAt: new Date("2030-01-01T00:00:00Z") } }))).toEqual([
      "body",
      "ends_at",
    ]);
    expect(await locOf(polar.discounts.update({ id: d.id, discountUpdate: { maxRedemptions: 0 } }))).toEqual(["body", "max_redemptions"]);

    // Shape changes before any redemption: the new shape needs its fields.
    expect(await locOf(polar.discounts.update({ id: d.id, discountUpdate: { type: "percentage" } }))).toEqual(["body", "basis_points"]);
    const u3 = await polar.discounts.update({ id: d.id, discountUpdate: { type: "percentage", basisPoints: 1500 } });
    expect(u3).toMatchObject({ type: "percentage", basisPoints: 1500 });
    expect(u3).not.toHaveProperty("amount");
    expect(await locOf(polar.discounts.update({ id: d.id, discountUpdate: { duration: "repeating" } }))).toEqual([
      "body",
      "duration_in_months",
    ]);
    const u4 = await polar.discounts.update({ id: d.id, discountUpdate: { duration: "repeating", durationInMonths: 6 } });
    expect(u4).toMatchObject({ duration: "repeating", durationInMonths: 6 });
    const u5 = await polar.discounts.update({ id: d.id, discountUpdate: { duration: "forever" } });
    expect(u5.duration).toBe("forever");
    expect(u5).not.toHaveProperty("durationInMonths");

    const other = await orgWithToken(api.knex);
    const foreign = await api
      .client(other.token)
      .products.create({ name: "Foreign product", recurringInterval: null, prices: [{ amountType: "free" }] });
    expect(await locOf(polar.discounts.update({ id: d.id, discountUpdate: { products: [p1.id, foreign.id] } }))).toEqual([
      "body",
      "products",
      1,
    ]);
    expect((await polar.discounts.get({ id: d.id })).products.map((p) => p.id)).toEqual([p2.id]);
    expect((await polar.discounts.update({ id: d.id, discountUpdate: { products: [] } })).products).toEqual([]);
  });

  it("freezes what a redeemed discount promised", async () => {
    const fixed = await createDiscount(api.knex, orgId, {
      type: "fixed",
      amount: 500,
      currency: "usd",
      basis_points: null,
      redemptions_count: 2,
    });
    for (const [update, field] of [
      [{ amount: 600 }, "amount"],
      [{ currency: "eur" }, "currency"],
      [{ type: "percentage", basisPoints: 100 }, "type"],
      [{ duration: "forever" }, "duration"],
      [{ duration: "repeating", durationInMonths: 2 }, "duration"],
    ] as const) {
      expect(await locOf(polar.discounts.update({ id: fixed.id, discountUpdate: invalid(update) })), field).toEqual(["body", field]);
    }
    // Unchanged values and everything else are fine.
    const ok = await polar.discounts.update({
      id: fixed.id,
      discountUpdate: { amount: 500, name: "Renamed", maxRedemptions: 10, code: "REDEEMED1" },
    });
    expect(ok).toMatchObject({ name: "Renamed", amount: 500, redemptionsCount: 2, maxRedemptions: 10 });

    const pct = await createDiscount(api.knex, orgId, { redemptions_count: 1, duration: "repeating", duration_in_months: 3 });
    expect(await locOf(polar.discounts.update({ id: pct.id, discountUpdate: { basisPoints: 2000 } }))).toEqual(["body", "basis_points"]);
    expect(await locOf(polar.discounts.update({ id: pct.id, discountUpdate: { durationInMonths: 4 } }))).toEqual([
      "body",
      "duration_in_months",
    ]);
    // The other type's fields are ignored.
    expect(await polar.discounts.update({ id: pct.id, discountUpdate: { amount: 999 } })).toMatchObject({ basisPoints: 1000 });
  });

  it("lists with every filter, sorts by every key and pages", async () => {
    const { org, token: t } = await orgWithToken(api.knex);
    const c = api.client(t);
    await c.discounts.create({ name: "Bravo deal", type: "percentage", duration: "once", basisPoints: 100, code: "CCC" });
    await c.discounts.create({ name: "alpha deal", type: "fixed", duration: "once", amount: 100, code: "AAA" });
    await c.discounts.create({ name: "Charlie", type: "percentage", duration: "forever", basisPoints: 100, code: "BBB" });
    await api.knex("discounts").where({ organization_id: org.id, code: "AAA" }).update({ redemptions_count: 5 });
    await api.knex("discounts").where({ organization_id: org.id, code: "BBB" }).update({ redemptions_count: 2 });

    const names = (ds: Discount[]) => ds.map((d) => d.name);
    expect(names(await collect(c, {})).sort()).toEqual(["Bravo deal", "Charlie", "alpha deal"]);
    expect(names(await collect(c, { query: "DEAL" })).sort()).toEqual(["Bravo deal", "alpha deal"]);
    expect(names(await collect(c, { query: "bb" }))).toEqual(["Charlie"]);
    expect(names(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(names(await collect(c, { organizationId: [orgId] }))).toEqual([]);

    const order = async (sorting: DiscountSortProperty[]) => names(await collect(c, { sorting }));
    expect(await order(["created_at"])).toEqual(["Bravo deal", "alpha deal", "Charlie"]);
    expect(await order(["-created_at"])).toEqual(["Charlie", "alpha deal", "Bravo deal"]);
    expect(await order([])).toEqual(["Charlie", "alpha deal", "Bravo deal"]);
    const byName = await order(["name"]);
    expect(byName).toHaveLength(3);
    expect(await order(["-name"])).toEqual([...byName].reverse());
    expect(await order(["code"])).toEqual(["alpha deal", "Charlie", "Bravo deal"]);
    expect(await order(["-code"])).toEqual(["Bravo deal", "Charlie", "alpha deal"]);
    expect(await order(["redemptions_count"])).toEqual(["Bravo deal", "Charlie", "alpha deal"]);
    expect(await order(["-redemptions_count"])).toEqual(["alpha deal", "Charlie", "Bravo deal"]);

    for (let i = 0; i < 20; i++) await createDiscount(api.knex, org.id, { name: `Bulk ${String(i).padStart(2, "0")}` });
    const pages = [];
    for await (const page of await c.discounts.list({ limit: 10, sorting: ["created_at"] })) pages.push(page.result);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
    expect(pages[0].pagination).toEqual({ totalCount: 23, maxPage: 3 });
    const beyond = await c.discounts.list({ page: 5, limit: 10 });
    expect(beyond.result.items).toEqual([]);
  });

  it("answers 422 for bad query parameters (raw HTTP)", async () => {
    for (const qs of ["limit=0", "page=0", "sorting=bogus", "sorting=-ends_at"]) {
      const res = await fetch(`${api.url}/v1/discounts/?${qs}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, qs).toBe(422);
    }
  });

  it("isolates organizations and checks tokens and scopes", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await api
      .client(other.token)
      .discounts.create({ name: "Theirs", type: "percentage", duration: "once", basisPoints: 100 });
    await rejects(polar.discounts.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.discounts.update({ id: foreign.id, discountUpdate: { name: "Hijack" } }), ResourceNotFound);
    await rejects(polar.discounts.delete({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.discounts.get({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.discounts.get({ id: "nope" }), ResourceNotFound);
    expect((await collect(polar, {})).map((d) => d.id)).not.toContain(foreign.id);
    expect((await api.client(other.token).discounts.get({ id: foreign.id })).name).toBe("Theirs");

    expect((await rejects(api.client("polar_oat_nope").discounts.list({}), SDKError)).statusCode).toBe(401);
    const ro = await orgWithToken(api.knex, { scopes: ["discounts:read"] });
    const roClient = api.client(ro.token);
    expect((await roClient.discounts.list({})).result.items).toEqual([]);
    expect(
      (await rejects(roClient.discounts.create({ name: "x", type: "percentage", duration: "once", basisPoints: 1 }), SDKError)).statusCode,
    ).toBe(403);
    const mine = await createDiscount(api.knex, ro.org.id);
    expect((await roClient.discounts.get({ id: mine.id })).id).toBe(mine.id);
    expect((await rejects(roClient.discounts.delete({ id: mine.id }), SDKError)).statusCode).toBe(403);
    const none = await orgWithToken(api.knex, { scopes: ["products:read"] });
    expect((await rejects(api.client(none.token).discounts.list({}), SDKError)).statusCode).toBe(403);
  });
});
