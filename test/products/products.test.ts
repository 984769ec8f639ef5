// Products through the official client: all four price types, every filter and sort key,
// paging, updates (prices, archiving, media, custom fields, benefits) and the error contract.
import { invalid } from "../harness/index.js";
import type { ProductSortProperty } from "@polar-sh/sdk/models/components/productsortproperty.js";
import { describe, expect, it, beforeAll } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import type { Product } from "@polar-sh/sdk/models/components/product.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import {
  collectPages,
  createBenefit,
  createCustomField,
  createFile,
  createMeter,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["products"]["list"]>[0]): Promise<Product[]> {
  return collectPages(await polar.products.list(req));
}

describe("products", () => {
  let polar: Polar;
  let orgId: string;
  let meterId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    meterId = (await createMeter(api.knex, org.id)).id;
  });

  it("creates a one-time product with a fixed price and reads it back", async () => {
    const created = await polar.products.create({
      name: "E-book",
      description: "A great read",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 2500, priceCurrency: "usd" }],
      metadata: { sku: "EB-1", pages: 320, hardcover: false },
    });
    expect(created.isRecurring).toBe(false);
    expect(created.organizationId).toBe(orgId);
    expect(created.prices).toHaveLength(1);
    const price = created.prices[0] as { amountType: string; priceAmount: number; type: string; priceCurrency: string };
    expect(price).toMatchObject({ amountType: "fixed", priceAmount: 2500, type: "one_time", priceCurrency: "usd" });
    const fetched = await polar.products.get({ id: created.id });
    expect(fetched).toEqual(created);
    expect(await outboxTypes(api.knex, orgId)).toContain("product.created");
  });

  it("creates custom, free and metered prices, with defaults applied", async () => {
    const custom = await polar.products.create({
      name: "Tip jar",
      recurringInterval: null,
      prices: [{ amountType: "custom", minimumAmount: 500, maximumAmount: 10000, presetAmount: 1500 }],
    });
    expect(custom.prices[0]).toMatchObject({
      amountType: "custom",
      minimumAmount: 500,
      maximumAmount: 10000,
      presetAmount: 1500,
      priceCurrency: "usd",
    });
    // Without a minimum, the minimum a custom price always had (50) is stored and shown.
    const anyAmount = await polar.products.create({
      name: "Donation",
      recurringInterval: null,
      prices: [{ amountType: "custom", priceCurrency: "eur" }],
    });
    expect(anyAmount.prices[0]).toMatchObject({ amountType: "custom", minimumAmount: 50, maximumAmount: null, priceCurrency: "eur" });

    // A free price is a fixed price of 0, in the currency of the product's other prices.
    const free = await polar.products.create({ name: "Free plan", recurringInterval: "month", prices: [{ amountType: "free" }] });
    expect(free.isRecurring).toBe(true);
    expect(free.prices[0]).toMatchObject({
      amountType: "fixed",
      priceAmount: 0,
      priceCurrency: "usd",
      type: "recurring",
      recurringInterval: "month",
    });
    const freeEur = await polar.products.create({
      name: "Free with usage",
      recurringInterval: "month",
      prices: [{ amountType: "free" }, { amountType: "metered_unit", meterId, unitAmount: 2, priceCurrency: "eur" }],
    });
    expect(freeEur.prices[0]).toMatchObject({ amountType: "fixed", priceAmount: 0, priceCurrency: "eur" });
    const zero = await polar.products.create({
      name: "Zero fixed",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 0, priceCurrency: "gbp" }],
    });
    expect(zero.prices[0]).toMatchObject({ amountType: "fixed", priceAmount: 0, priceCurrency: "gbp" });

    const metered = await polar.products.create({
      name: "API usage",
      recurringInterval: "month",
      prices: [
        { amountType: "fixed", priceAmount: 1000 },
        { amountType: "metered_unit", meterId, unitAmount: 0.25, capAmount: 50000 },
      ],
    });
    const unit = metered.prices.find((p) => p.amountType === "metered_unit") as {
      unitAmount: string;
      capAmount: number;
      meter: { id: string; name: string };
    };
    expect(unit.unitAmount).toBe("0.25");
    expect(unit.capAmount).toBe(50000);
    expect(unit.meter).toEqual({ id: meterId, name: "API calls" });
  });

  it("rejects invalid price sets with 422 and a location", async () => {
    const cases: [unknown[], string | null, (string | number)[]][] = [
      [[{ amountType: "fixed", priceAmount: 10 }], null, ["body", "prices", 0, "price_amount"]],
      [[{ amountType: "fixed", priceAmount: 0 }, { amountType: "free" }], null, ["body", "prices"]],
      [[{ amountType: "fixed", priceAmount: 1000 }, { amountType: "free" }], null, ["body", "prices"]],
      [[{ amountType: "metered_unit", meterId, unitAmount: 1 }, { amountType: "free" }], null, ["body", "prices", 0, "amount_type"]],
      [[{ amountType: "custom", minimumAmount: 5000, maximumAmount: 1000 }], null, ["body", "prices", 0, "maximum_amount"]],
      [[{ amountType: "custom", minimumAmount: 1000, presetAmount: 500 }], null, ["body", "prices", 0, "preset_amount"]],
      [
        [{ amountType: "free" }, { amountType: "metered_unit", meterId: "00000000-0000-4000-8000-000000000000", unitAmount: 1 }],
        "month",
        ["body", "prices", 1, "meter_id"],
      ],
      [[], null, ["body", "prices"]],
    ];
    for (const [prices, recurringInterval, loc] of cases) {
      const err = await rejects(
        polar.products.create({ name: "Bad product", recurringInterval: recurringInterval as "month" | null, prices: invalid(prices) }),
        HTTPValidationError,
      );
      expect(err.data$.detail?.map((d) => d.loc)).toContainEqual(loc);
    }
    const short = await rejects(
      polar.products.create({ name: "ab", recurringInterval: null, prices: [{ amountType: "free" }] }),
      HTTPValidationError,
    );
    expect(short.data$.detail?.[0].loc).toEqual(["body", "name"]);
  });

  it("answers 422 for a malformed body and bad query parameters (raw HTTP)", async () => {
    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let res = await fetch(`${api.url}/v1/products/`, { method: "POST", headers, body: JSON.stringify({ prices: [] }) });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(body.detail).toContainEqual(expect.objectContaining({ loc: ["body", "name"], type: "missing" }));
    res = await fetch(`${api.url}/v1/products/`, { method: "POST", headers, body: "{not json" });
    expect(res.status).toBe(422);
    for (const qs of ["limit=0", "limit=101", "page=0", "sorting=bogus", "is_archived=maybe", "limit=abc"]) {
      res = await fetch(`${api.url}/v1/products/?${qs}`, { headers });
      expect(res.status, qs).toBe(422);
      const b = (await res.json()) as { detail: { loc: unknown[] }[] };
      expect(b.detail[0].loc[0], qs).toBe("query");
    }
  });

  it("counts the total in the page's own statement, and past the last page apart (raw HTTP)", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const made = [];
    for (const name of ["Page one", "Page two", "Page three"]) {
      made.push(await c.products.create({ name, recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 100 }] }));
    }
    const headers = { authorization: `Bearer ${token}` };
    const page = async (qs: string) => {
      const res = await fetch(`${api.url}/v1/products/?${qs}`, { headers });
      expect(res.status, qs).toBe(200);
      return (await res.json()) as { items: { id: string; prices: unknown[] }[]; pagination: { total_count: number; max_page: number } };
    };
    const first = await page("limit=2");
    expect(first.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect(first.items.map((p) => p.id)).toEqual([made[2].id, made[1].id]);
    expect(first.items.every((p) => p.prices.length === 1)).toBe(true);
    expect((await page("limit=2&page=2")).items.map((p) => p.id)).toEqual([made[0].id]);
    // Past the last page: no rows to carry the count, so it is asked apart.
    expect(await page("limit=2&page=5")).toEqual({ items: [], pagination: { total_count: 3, max_page: 2 } });
    // A filtered page (ids: the knex path, not a prepared statement) counts what the filter keeps.
    const filtered = await page(`id=${made[0].id}&id=${made[1].id}&limit=1`);
    expect(filtered.pagination).toEqual({ total_count: 2, max_page: 2 });
    expect(await page("query=nothing-like-it")).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
  });

  it("lists with every filter", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const benefit = await createBenefit(api.knex, org.id);
    const a = await c.products.create({
      name: "Alpha one-time",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 900 }],
      metadata: { tier: "basic", seats: 1 },
    });
    const b = await c.products.create({
      name: "Beta monthly",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 1900 }],
      metadata: { tier: "pro", seats: 5 },
    });
    const d = await c.products.create({
      name: "Delta yearly",
      recurringInterval: "year",
      prices: [{ amountType: "free" }],
      metadata: { tier: "pro" },
    });
    await c.products.update({ id: d.id, productUpdate: { isArchived: true } });
    await c.products.updateBenefits({ id: b.id, productBenefitsUpdate: { benefits: [benefit.id] } });

    const names = (ps: Product[]) => ps.map((p) => p.name).sort();
    expect(names(await collect(c, {}))).toEqual(["Alpha one-time", "Beta monthly", "Delta yearly"]);
    expect(names(await collect(c, { id: [a.id, d.id] }))).toEqual(["Alpha one-time", "Delta yearly"]);
    expect(names(await collect(c, { id: b.id }))).toEqual(["Beta monthly"]);
    expect(names(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(names(await collect(c, { organizationId: orgId }))).toEqual([]);
    expect(names(await collect(c, { query: "ALPHA" }))).toEqual(["Alpha one-time"]);
    expect(names(await collect(c, { isArchived: true }))).toEqual(["Delta yearly"]);
    expect(names(await collect(c, { isArchived: false }))).toEqual(["Alpha one-time", "Beta monthly"]);
    expect(names(await collect(c, { isRecurring: true }))).toEqual(["Beta monthly", "Delta yearly"]);
    expect(names(await collect(c, { isRecurring: false }))).toEqual(["Alpha one-time"]);
    expect(names(await collect(c, { benefitId: benefit.id }))).toEqual(["Beta monthly"]);
    expect(names(await collect(c, { metadata: { tier: "pro" } }))).toEqual(["Beta monthly", "Delta yearly"]);
    expect(names(await collect(c, { metadata: { tier: ["basic", "pro"], seats: 5 } }))).toEqual(["Beta monthly"]);
  });

  it("sorts by every key, ascending and descending", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const made = [];
    made.push(await c.products.create({ name: "Charlie", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 3000 }] }));
    made.push(await c.products.create({ name: "alpha", recurringInterval: null, prices: [{ amountType: "custom", minimumAmount: 100 }] }));
    made.push(await c.products.create({ name: "Bravo", recurringInterval: null, prices: [{ amountType: "free" }] }));
    made.push(await c.products.create({ name: "Delta", recurringInterval: null, prices: [{ amountType: "fixed", priceAmount: 1000 }] }));
    const order = async (sorting: ProductSortProperty[]) => (await collect(c, { sorting })).map((p) => p.name);
    expect(await order(["created_at"])).toEqual(["Charlie", "alpha", "Bravo", "Delta"]);
    expect(await order(["-created_at"])).toEqual(["Delta", "Bravo", "alpha", "Charlie"]);
    expect(await order([])).toEqual(["Delta", "Bravo", "alpha", "Charlie"]);
    const byName = await order(["name"]);
    expect(await order(["-name"])).toEqual([...byName].reverse());
    expect(await order(["price_amount_type", "name"])).toEqual(["Bravo", "alpha", "Charlie", "Delta"]);
    expect(await order(["-price_amount_type", "name"])).toEqual(["Charlie", "Delta", "alpha", "Bravo"]);
    expect(await order(["price_amount"])).toEqual(["Bravo", "alpha", "Delta", "Charlie"]);
    expect(await order(["-price_amount"])).toEqual(["Charlie", "Delta", "alpha", "Bravo"]);
  });

  it("pages across several pages", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    for (let i = 0; i < 23; i++) {
      await c.products.create({
        name: `Item ${String(i).padStart(2, "0")}`,
        recurringInterval: null,
        prices: [{ amountType: "fixed", priceAmount: 100 + i }],
      });
    }
    const pages = [];
    for await (const page of await c.products.list({ limit: 10, sorting: ["name"] })) pages.push(page.result);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
    expect(pages[0].pagination).toEqual({ totalCount: 23, maxPage: 3 });
    expect(pages.flatMap((p) => p.items.map((i) => i.name))).toEqual(
      Array.from({ length: 23 }, (_, i) => `Item ${String(i).padStart(2, "0")}`),
    );
    const third = await c.products.list({ page: 3, limit: 10, sorting: ["name"] });
    expect(third.result.items.map((i) => i.name)).toEqual(["Item 20", "Item 21", "Item 22"]);
    const beyond = await c.products.list({ page: 9, limit: 10 });
    expect(beyond.result.items).toEqual([]);
    expect(beyond.result.pagination.totalCount).toBe(23);
    const big = await c.products.list({ limit: 100 });
    expect(big.result.items).toHaveLength(23);
  });

  it("updates fields, keeps and replaces prices, archives", async () => {
    const p = await polar.products.create({
      name: "Course",
      recurringInterval: "month",
      prices: [
        { amountType: "fixed", priceAmount: 1500 },
        { amountType: "metered_unit", meterId, unitAmount: "0.001" },
      ],
    });
    const fixed = p.prices.find((x) => x.amountType === "fixed")!;
    const metered = p.prices.find((x) => x.amountType === "metered_unit")!;
    const u1 = await polar.products.update({
      id: p.id,
      productUpdate: {
        name: "Course v2",
        description: "Updated",
        metadata: { v: 2 },
        prices: [{ id: metered.id }, { amountType: "fixed", priceAmount: 2500 }],
      },
    });
    expect(u1.name).toBe("Course v2");
    expect(u1.description).toBe("Updated");
    expect(u1.metadata).toEqual({ v: 2 });
    expect(u1.prices.map((x) => x.id)).toContain(metered.id);
    expect(u1.prices.map((x) => x.id)).not.toContain(fixed.id);
    expect(u1.prices.find((x) => x.amountType === "fixed")).toMatchObject({ priceAmount: 2500 });
    const archivedPrice = await api.knex("product_prices").where({ id: fixed.id }).first();
    expect(archivedPrice.is_archived).toBe(true);
    expect(u1.modifiedAt).not.toBeNull();

    const u2 = await polar.products.update({ id: p.id, productUpdate: { recurringInterval: "year" } });
    expect(u2.recurringInterval).toBe("year");
    await rejects(polar.products.update({ id: p.id, productUpdate: { recurringInterval: null } }), HTTPValidationError);
    await rejects(polar.products.update({ id: p.id, productUpdate: { prices: [{ id: fixed.id }] } }), HTTPValidationError);
    const archived = await polar.products.update({ id: p.id, productUpdate: { isArchived: true } });
    expect(archived.isArchived).toBe(true);
    const types = await outboxTypes(api.knex, orgId);
    expect(types.filter((t) => t === "product.updated").length).toBeGreaterThanOrEqual(3);
  });

  it("attaches media and custom fields, checking they belong to the organization", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const media = await createFile(api.knex, org.id);
    const field = await createCustomField(api.knex, org.id);
    const p = await c.products.create({
      name: "Poster",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1200 }],
      medias: [media.id],
      attachedCustomFields: [{ customFieldId: field.id, required: true }],
    });
    expect(p.medias.map((m) => m.id)).toEqual([media.id]);
    expect(p.medias[0].publicUrl).toMatch(/^http/);
    expect(p.attachedCustomFields).toMatchObject([{ customFieldId: field.id, order: 0, required: true }]);

    const foreignMedia = await createFile(api.knex, orgId);
    const notUploaded = await createFile(api.knex, org.id, { is_uploaded: false });
    const download = await createFile(api.knex, org.id, { service: "downloadable" });
    for (const bad of [foreignMedia.id, notUploaded.id, download.id]) {
      const err = await rejects(c.products.update({ id: p.id, productUpdate: { medias: [bad] } }), HTTPValidationError);
      expect(err.data$.detail?.[0].loc).toEqual(["body", "medias"]);
    }
    const foreignField = await createCustomField(api.knex, orgId);
    await rejects(
      c.products.update({ id: p.id, productUpdate: { attachedCustomFields: [{ customFieldId: foreignField.id, required: false }] } }),
      HTTPValidationError,
    );
    const cleared = await c.products.update({ id: p.id, productUpdate: { medias: [], attachedCustomFields: [] } });
    expect(cleared.medias).toEqual([]);
    expect(cleared.attachedCustomFields).toEqual([]);
  });

  it("updates benefits", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const b1 = await createBenefit(api.knex, org.id, { description: "Support" });
    const b2 = await createBenefit(api.knex, org.id, { description: "Discord" });
    const p = await c.products.create({ name: "Bundle", recurringInterval: "month", prices: [{ amountType: "fixed", priceAmount: 900 }] });
    const u = await c.products.updateBenefits({ id: p.id, productBenefitsUpdate: { benefits: [b2.id, b1.id] } });
    expect(u.benefits.map((b) => b.id)).toEqual([b2.id, b1.id]);
    expect(u.benefits[0]).toMatchObject({ type: "custom", description: "Discord" });
    const none = await c.products.updateBenefits({ id: p.id, productBenefitsUpdate: { benefits: [] } });
    expect(none.benefits).toEqual([]);
    const foreign = await createBenefit(api.knex, orgId);
    await rejects(c.products.updateBenefits({ id: p.id, productBenefitsUpdate: { benefits: [foreign.id] } }), HTTPValidationError);
    const locked = await createBenefit(api.knex, org.id, { selectable: false });
    const err = await rejects(c.products.updateBenefits({ id: p.id, productBenefitsUpdate: { benefits: [locked.id] } }), NotPermitted);
    expect(err.data$.error).toBe("NotPermitted");
  });

  it("answers 404 for unknown and foreign ids, 401 for bad tokens, 403 for missing scopes", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await api
      .client(other.token)
      .products.create({ name: "Secret", recurringInterval: null, prices: [{ amountType: "free" }] });
    await rejects(polar.products.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.products.get({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.products.update({ id: foreign.id, productUpdate: { name: "Hijacked" } }), ResourceNotFound);
    await rejects(polar.products.updateBenefits({ id: foreign.id, productBenefitsUpdate: { benefits: [] } }), ResourceNotFound);
    expect((await api.knex("products").where({ id: foreign.id }).first()).name).toBe("Secret");

    const bad = await rejects(api.client("polar_oat_nope").products.list({}), SDKError);
    expect(bad.statusCode).toBe(401);
    const res = await fetch(`${api.url}/v1/products/`);
    expect(res.status).toBe(401);

    const readOnly = await orgWithToken(api.knex, { scopes: ["products:read"] });
    const ro = api.client(readOnly.token);
    expect((await ro.products.list({})).result.items).toEqual([]);
    const denied = await rejects(ro.products.create({ name: "Nope", recurringInterval: null, prices: [{ amountType: "free" }] }), SDKError);
    expect(denied.statusCode).toBe(403);
    const noScope = await orgWithToken(api.knex, { scopes: ["orders:read"] });
    expect((await rejects(api.client(noScope.token).products.list({}), SDKError)).statusCode).toBe(403);
  });

  it("takes a trial, an interval count, a visibility and a tax behavior from 0.49.0, and shows them to both clients", async () => {
    const { token } = await orgWithToken(api.knex);
    const c49 = api.client049(token);
    const created = await c49.products.create({
      name: "Team plan",
      recurringInterval: "month",
      recurringIntervalCount: 3,
      trialInterval: "day",
      trialIntervalCount: 14,
      visibility: "private",
      prices: [{ amountType: "fixed", priceAmount: 3000, priceCurrency: "usd", taxBehavior: "exclusive" }],
    });
    expect(created).toMatchObject({
      recurringInterval: "month",
      recurringIntervalCount: 3,
      trialInterval: "day",
      trialIntervalCount: 14,
      visibility: "private",
      meterInterval: null,
      meterIntervalCount: null,
      isRecurring: true,
    });
    expect(created.prices[0]).toMatchObject({ source: "catalog", taxBehavior: "exclusive", amountType: "fixed", priceAmount: 3000 });
    expect(await c49.products.get({ id: created.id })).toEqual(created);
    // The older client reads the same product (the new fields are additions).
    expect(await api.client(token).products.get({ id: created.id })).toMatchObject({
      id: created.id,
      recurringInterval: "month",
      isRecurring: true,
    });

    // Defaults: public, billed every interval, no trial; a one-time product counts no interval.
    const plain = await c49.products.create({
      name: "Monthly",
      recurringInterval: "month",
      prices: [{ amountType: "fixed", priceAmount: 900 }],
    });
    expect(plain).toMatchObject({ visibility: "public", recurringIntervalCount: 1, trialInterval: null, trialIntervalCount: null });
    expect(plain.prices[0]).toMatchObject({ taxBehavior: null, source: "catalog" });
    const once = await c49.products.create({ name: "E-book", prices: [{ amountType: "fixed", priceAmount: 900 }] });
    expect(once).toMatchObject({ recurringInterval: null, recurringIntervalCount: null, visibility: "public" });

    const updated = await c49.products.update({
      id: created.id,
      productUpdate: { visibility: "draft", recurringIntervalCount: 6, trialInterval: null, trialIntervalCount: null },
    });
    expect(updated).toMatchObject({ visibility: "draft", recurringIntervalCount: 6, trialInterval: null, trialIntervalCount: null });
    const trialAgain = await c49.products.update({ id: created.id, productUpdate: { trialInterval: "week", trialIntervalCount: 2 } });
    expect(trialAgain).toMatchObject({ trialInterval: "week", trialIntervalCount: 2, visibility: "draft", recurringIntervalCount: 6 });

    const names = async (visibility: ("draft" | "private" | "public")[]) =>
      (await c49.products.list({ visibility })).result.items.map((p) => p.name).sort();
    expect(await names(["draft"])).toEqual(["Team plan"]);
    expect(await names(["public"])).toEqual(["E-book", "Monthly"]);
    expect(await names(["draft", "public"])).toEqual(["E-book", "Monthly", "Team plan"]);
  });

  it("refuses a trial or an interval count on a one-time product, half a trial, and a meter cycle", async () => {
    const { token } = await orgWithToken(api.knex);
    const c49 = api.client049(token);
    const prices = [{ amountType: "fixed" as const, priceAmount: 900 }];
    const loc = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError049)).detail?.map((d) => d.loc);
    expect(await loc(c49.products.create({ name: "Half", recurringInterval: "month", trialInterval: "day", prices }))).toEqual([
      ["body", "trial_interval_count"],
    ]);
    expect(
      await loc(
        c49.products.create({ name: "Metered cycle", recurringInterval: "month", meterInterval: "day", meterIntervalCount: 1, prices }),
      ),
    ).toEqual([["body", "meter_interval"]]);
    expect(await loc(c49.products.create({ name: "Zero count", recurringInterval: "month", recurringIntervalCount: 0, prices }))).toEqual([
      ["body", "recurring_interval_count"],
    ]);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const post = async (body: object) => {
      const res = await fetch(`${api.url}/v1/products/`, {
        method: "POST",
        headers,
        body: JSON.stringify(Object.assign({ name: "One time", prices: [{ amount_type: "fixed", price_amount: 900 }] }, body)),
      });
      expect(res.status).toBe(422);
      return ((await res.json()) as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc);
    };
    expect(await post({ trial_interval: "day", trial_interval_count: 7 })).toEqual([["body", "trial_interval"]]);
    expect(await post({ recurring_interval_count: 2 })).toEqual([["body", "recurring_interval_count"]]);
    const once = await c49.products.create({ name: "One time", prices });
    expect(await loc(c49.products.update({ id: once.id, productUpdate: { trialInterval: "day", trialIntervalCount: 3 } }))).toEqual([
      ["body", "trial_interval"],
    ]);
    expect(await loc(c49.products.update({ id: once.id, productUpdate: { recurringIntervalCount: 2 } }))).toEqual([
      ["body", "recurring_interval_count"],
    ]);
  });
});
