// Custom fields through the official client: the five types and their properties, slug rules,
// every filter and sort key, paging, updates, deletion and the error contract.
import type { CustomFieldSortProperty } from "@polar-sh/sdk/models/components/customfieldsortproperty.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { CustomField } from "@polar-sh/sdk/models/components/customfield.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { collectPages, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["customFields"]["list"]>[0]): Promise<CustomField[]> {
  return collectPages(await polar.customFields.list(req));
}

const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];

describe("custom fields", () => {
  let polar: Polar;
  let orgId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
  });

  it("creates every type with its properties and reads it back", async () => {
    const text = await polar.customFields.create({
      type: "text",
      slug: "Company_Name",
      name: "Company name",
      properties: {
        formLabel: "Company",
        formHelpText: "As registered",
        formPlaceholder: "ACME Inc.",
        textarea: false,
        minLength: 2,
        maxLength: 80,
      },
      metadata: { source: "crm", weight: 3 },
    });
    expect(text).toMatchObject({
      type: "text",
      slug: "company_name",
      name: "Company name",
      organizationId: orgId,
      metadata: { source: "crm", weight: 3 },
      properties: {
        formLabel: "Company",
        formHelpText: "As registered",
        formPlaceholder: "ACME Inc.",
        textarea: false,
        minLength: 2,
        maxLength: 80,
      },
    });
    expect(text.modifiedAt).toBeNull();
    expect(await polar.customFields.get({ id: text.id })).toEqual(text);

    const number = await polar.customFields.create({ type: "number", slug: "seats", name: "Seats", properties: { ge: 1, le: 500 } });
    expect(number.properties).toEqual({ ge: 1, le: 500 });
    const date = await polar.customFields.create({
      type: "date",
      slug: "birthday",
      name: "Birthday",
      properties: { ge: 0, le: 2_000_000_000 },
    });
    expect(date.type).toBe("date");
    const checkbox = await polar.customFields.create({
      type: "checkbox",
      slug: "tos",
      name: "Terms",
      properties: { formLabel: "I agree" },
    });
    expect(checkbox.properties).toEqual({ formLabel: "I agree" });
    const select = await polar.customFields.create({
      type: "select",
      slug: "size",
      name: "T-shirt size",
      properties: {
        options: [
          { value: "s", label: "Small" },
          { value: "m", label: "Medium" },
        ],
      },
    });
    expect(select.properties).toEqual({
      options: [
        { value: "s", label: "Small" },
        { value: "m", label: "Medium" },
      ],
    });
  });

  it("rejects bad slugs, duplicate slugs (case-insensitively) and bad properties with 422", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.customFields.create({ type: "text", slug: "vat-number", name: "VAT", properties: {} });
    const dup = await rejects(
      c.customFields.create({ type: "checkbox", slug: "VAT-Number", name: "Other", properties: {} }),
      HTTPValidationError,
    );
    expect(locs(dup)).toEqual([["body", "slug"]]);
    const cases: [Parameters<Polar["customFields"]["create"]>[0], (string | number)[]][] = [
      [{ type: "text", slug: "has space", name: "x", properties: {} }, ["body", "slug"]],
      [{ type: "text", slug: "ok-slug", name: "  ", properties: {} }, ["body", "name"]],
      [{ type: "text", slug: "ok-slug", name: "x", properties: { minLength: 10, maxLength: 2 } }, ["body", "properties", "max_length"]],
      [{ type: "text", slug: "ok-slug", name: "x", properties: { minLength: -1 } }, ["body", "properties", "min_length"]],
      [{ type: "text", slug: "ok-slug", name: "x", properties: { formLabel: "" } }, ["body", "properties", "form_label"]],
      [{ type: "number", slug: "ok-slug", name: "x", properties: { ge: 10, le: 1 } }, ["body", "properties", "le"]],
      [
        { type: "select", slug: "ok-slug", name: "x", properties: { options: [{ value: "", label: "Empty" }] } },
        ["body", "properties", "options", 0, "value"],
      ],
      [
        {
          type: "select",
          slug: "ok-slug",
          name: "x",
          properties: {
            options: [
              { value: "a", label: "A" },
              { value: "a", label: "B" },
            ],
          },
        },
        ["body", "properties", "options", 1, "value"],
      ],
      [{ type: "text", slug: "ok-slug", name: "x", organizationId: orgId, properties: {} }, ["body", "organization_id"]],
    ];
    for (const [body, loc] of cases) {
      const err = await rejects(c.customFields.create(body), HTTPValidationError);
      expect(locs(err), JSON.stringify(body)).toContainEqual(loc);
    }
  });

  it("answers 422 for malformed bodies and query parameters (raw HTTP)", async () => {
    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    let res = await fetch(`${api.url}/v1/custom-fields/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "text", name: "No slug", properties: {} }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: unknown[] }[] }).detail).toContainEqual(
      expect.objectContaining({ loc: ["body", "slug"] }),
    );
    res = await fetch(`${api.url}/v1/custom-fields/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "color", slug: "c", name: "C", properties: {} }),
    });
    expect(res.status).toBe(422);
    res = await fetch(`${api.url}/v1/custom-fields/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "select", slug: "c", name: "C", properties: {} }),
    });
    expect(res.status).toBe(422);
    for (const qs of ["type=color", "sorting=bogus", "limit=0", "page=0"]) {
      res = await fetch(`${api.url}/v1/custom-fields/?${qs}`, { headers });
      expect(res.status, qs).toBe(422);
    }
  });

  it("lists with every filter", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.customFields.create({ type: "text", slug: "company", name: "Company name", properties: {} });
    await c.customFields.create({ type: "number", slug: "seats", name: "Number of seats", properties: {} });
    await c.customFields.create({ type: "checkbox", slug: "newsletter", name: "Subscribe", properties: {} });
    const slugs = (fs: CustomField[]) => fs.map((f) => f.slug).sort();
    expect(slugs(await collect(c, {}))).toEqual(["company", "newsletter", "seats"]);
    expect(slugs(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(slugs(await collect(c, { organizationId: [orgId] }))).toEqual([]);
    expect(slugs(await collect(c, { query: "NAME" }))).toEqual(["company"]);
    expect(slugs(await collect(c, { query: "news" }))).toEqual(["newsletter"]);
    expect(slugs(await collect(c, { typeFilter: "number" }))).toEqual(["seats"]);
    expect(slugs(await collect(c, { typeFilter: ["number", "checkbox"] }))).toEqual(["newsletter", "seats"]);
  });

  it("sorts by every key and pages", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.customFields.create({ type: "text", slug: "b-slug", name: "Zulu", properties: {} });
    await c.customFields.create({ type: "checkbox", slug: "c-slug", name: "Alpha", properties: {} });
    await c.customFields.create({ type: "number", slug: "a-slug", name: "Mike", properties: {} });
    const order = async (sorting?: CustomFieldSortProperty[]) => (await collect(c, { sorting })).map((f) => f.slug);
    expect(await order()).toEqual(["a-slug", "b-slug", "c-slug"]);
    expect(await order(["slug"])).toEqual(["a-slug", "b-slug", "c-slug"]);
    expect(await order(["-slug"])).toEqual(["c-slug", "b-slug", "a-slug"]);
    expect(await order(["created_at"])).toEqual(["b-slug", "c-slug", "a-slug"]);
    expect(await order(["-created_at"])).toEqual(["a-slug", "c-slug", "b-slug"]);
    expect(await order(["name"])).toEqual(["c-slug", "a-slug", "b-slug"]);
    expect(await order(["-name"])).toEqual(["b-slug", "a-slug", "c-slug"]);
    expect(await order(["type"])).toEqual(["c-slug", "a-slug", "b-slug"]);
    expect(await order(["-type"])).toEqual(["b-slug", "a-slug", "c-slug"]);

    for (let i = 0; i < 9; i++) await c.customFields.create({ type: "text", slug: `page-${i}`, name: `Page ${i}`, properties: {} });
    const pages = [];
    for await (const page of await c.customFields.list({ limit: 5 })) pages.push(page.result);
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 2]);
    expect(pages[0].pagination).toEqual({ totalCount: 12, maxPage: 3 });
  });

  it("updates name, slug, properties and metadata; the type never changes", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const f = await c.customFields.create({
      type: "select",
      slug: "plan",
      name: "Plan",
      properties: { options: [{ value: "a", label: "A" }] },
    });
    await c.customFields.create({ type: "text", slug: "taken", name: "Taken", properties: {} });
    const u = await c.customFields.update({
      id: f.id,
      customFieldUpdate: {
        type: "select",
        name: "Your plan",
        slug: "Your-Plan",
        metadata: { v: 2 },
        properties: { options: [{ value: "b", label: "B" }] },
      },
    });
    expect(u).toMatchObject({
      name: "Your plan",
      slug: "your-plan",
      metadata: { v: 2 },
      properties: { options: [{ value: "b", label: "B" }] },
    });
    expect(u.modifiedAt).toBeInstanceOf(Date);
    const same = await c.customFields.update({ id: f.id, customFieldUpdate: { type: "select", slug: "your-plan" } });
    expect(same.slug).toBe("your-plan");
    const typeErr = await rejects(c.customFields.update({ id: f.id, customFieldUpdate: { type: "text", name: "x" } }), HTTPValidationError);
    expect(locs(typeErr)).toEqual([["body", "type"]]);
    const slugErr = await rejects(
      c.customFields.update({ id: f.id, customFieldUpdate: { type: "select", slug: "TAKEN" } }),
      HTTPValidationError,
    );
    expect(locs(slugErr)).toEqual([["body", "slug"]]);
    const propErr = await rejects(
      c.customFields.update({ id: f.id, customFieldUpdate: { type: "select", properties: { options: [{ value: "x", label: "" }] } } }),
      HTTPValidationError,
    );
    expect(locs(propErr)).toEqual([["body", "properties", "options", 0, "label"]]);
  });

  it("deletes with 204: the field is gone, its slug is free and products no longer carry it", async () => {
    const { token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const f = await c.customFields.create({ type: "text", slug: "gone", name: "Gone", properties: {} });
    const product = await c.products.create({
      name: "With field",
      recurringInterval: null,
      prices: [{ amountType: "free" }],
      attachedCustomFields: [{ customFieldId: f.id, required: true }],
    });
    expect(product.attachedCustomFields).toHaveLength(1);
    await c.customFields.delete({ id: f.id });
    await rejects(c.customFields.get({ id: f.id }), ResourceNotFound);
    await rejects(c.customFields.delete({ id: f.id }), ResourceNotFound);
    expect((await c.products.get({ id: product.id })).attachedCustomFields).toEqual([]);
    expect(await api.knex("product_custom_fields").where({ custom_field_id: f.id })).toHaveLength(0);
    expect((await collect(c, {})).map((x) => x.id)).not.toContain(f.id);
    const again = await c.customFields.create({ type: "number", slug: "gone", name: "Back", properties: {} });
    expect(again.slug).toBe("gone");
  });

  it("isolates organizations: 404 for foreign and unknown ids, 401 and 403 for tokens", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await api.client(other.token).customFields.create({ type: "text", slug: "secret", name: "Secret", properties: {} });
    await rejects(polar.customFields.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.customFields.get({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
    await rejects(polar.customFields.get({ id: "not-a-uuid" }), ResourceNotFound);
    await rejects(polar.customFields.update({ id: foreign.id, customFieldUpdate: { type: "text", name: "Hijack" } }), ResourceNotFound);
    await rejects(polar.customFields.delete({ id: foreign.id }), ResourceNotFound);
    expect((await api.knex("custom_fields").where({ id: foreign.id }).first()).name).toBe("Secret");
    expect((await collect(polar, {})).map((f) => f.id)).not.toContain(foreign.id);
    // The same slug is free in another organization.
    await polar.customFields.create({ type: "text", slug: "secret", name: "Mine", properties: {} });

    expect((await rejects(api.client("polar_oat_nope").customFields.list({}), SDKError)).statusCode).toBe(401);
    const readOnly = await orgWithToken(api.knex, { scopes: ["custom_fields:read"] });
    expect((await api.client(readOnly.token).customFields.list({})).result.items).toEqual([]);
    const denied = await rejects(
      api.client(readOnly.token).customFields.create({ type: "text", slug: "x", name: "X", properties: {} }),
      SDKError,
    );
    expect(denied.statusCode).toBe(403);
  });
});
