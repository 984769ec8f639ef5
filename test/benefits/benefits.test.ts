// Benefits through the official client: the six types and their property rules, the provider
// verifier, every filter and sort key, paging, updates, deletion, grants and the error contract.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import type { Benefit } from "@polar-sh/sdk/models/components/benefit.js";
import type { BenefitCreate } from "@polar-sh/sdk/models/components/benefitcreate.js";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { Polar as Polar049 } from "polar-sdk-049";
import { setBenefitVerifier } from "../../server/benefits/verifier.js";
import {
  collectPages,
  createBenefit,
  createBenefitGrant,
  createCustomer,
  createCustomerSessionToken,
  createFile,
  createMeter,
  orgWithToken,
  outboxTypes,
  rejects,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

async function collect(polar: Polar, req: Parameters<Polar["benefits"]["list"]>[0]): Promise<Benefit[]> {
  return collectPages(await polar.benefits.list(req));
}

const locs = (err: HTTPValidationError) => err.data$.detail?.map((d) => d.loc) ?? [];
const GUILD = "1234567890123456789";
const ROLE = "9876543210987654321";

describe("benefits", () => {
  let polar: Polar;
  let orgId: string;
  let meterId: string;
  let fileId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    orgId = org.id;
    polar = api.client(token);
    meterId = (await createMeter(api.knex, org.id)).id;
    fileId = (await createFile(api.knex, org.id, { service: "downloadable", name: "book.pdf", mime_type: "application/pdf" })).id;
  });

  afterEach(() => setBenefitVerifier(null));

  it("creates all six types with their properties and reads them back", async () => {
    const custom = await polar.benefits.create({
      type: "custom",
      description: "Priority support",
      properties: { note: "Email us" },
      metadata: { tier: "gold", level: 2 },
    });
    expect(custom).toMatchObject({
      type: "custom",
      description: "Priority support",
      selectable: true,
      deletable: true,
      organizationId: orgId,
      metadata: { tier: "gold", level: 2 },
      properties: { note: "Email us" },
    });
    expect(custom.modifiedAt).toBeNull();
    expect(await polar.benefits.get({ id: custom.id })).toEqual(custom);
    const noNote = await polar.benefits.create({ type: "custom", description: "No note", properties: {} });
    expect(noNote.properties).toEqual({ note: null });

    const discord = await polar.benefits.create({
      type: "discord",
      description: "Discord role",
      properties: { guildToken: GUILD, roleId: ROLE, kickMember: true },
    });
    expect(discord.properties).toEqual({ guildId: GUILD, roleId: ROLE, kickMember: true, guildToken: GUILD });

    const github = await polar.benefits.create({
      type: "github_repository",
      description: "Source access",
      properties: { repositoryOwner: "acme-inc", repositoryName: "private.repo_1", permission: "pull" },
    });
    expect(github.properties).toEqual({ repositoryOwner: "acme-inc", repositoryName: "private.repo_1", permission: "pull" });

    const downloads = await polar.benefits.create({ type: "downloadables", description: "E-book", properties: { files: [fileId] } });
    expect(downloads.properties).toEqual({ files: [fileId], archived: {} });
    const archived = await polar.benefits.create({
      type: "downloadables",
      description: "E-book v0",
      properties: { files: [fileId], archived: { [fileId]: true } },
    });
    expect(archived.properties).toEqual({ files: [fileId], archived: { [fileId]: true } });

    const keys = await polar.benefits.create({
      type: "license_keys",
      description: "License key",
      properties: {
        prefix: "ACME",
        expires: { ttl: 12, timeframe: "month" },
        activations: { limit: 3, enableCustomerAdmin: true },
        limitUsage: 1000,
      },
    });
    expect(keys.properties).toEqual({
      prefix: "ACME",
      expires: { ttl: 12, timeframe: "month" },
      activations: { limit: 3, enableCustomerAdmin: true },
      limitUsage: 1000,
    });
    const bareKeys = await polar.benefits.create({ type: "license_keys", description: "Plain key", properties: { prefix: "" } });
    expect(bareKeys.properties).toEqual({ prefix: null, expires: null, activations: null, limitUsage: null });

    const credits = await polar.benefits.create({
      type: "meter_credit",
      description: "1000 calls",
      properties: { units: 1000, rollover: true, meterId },
    });
    expect(credits.properties).toEqual({ units: 1000, rollover: true, meterId });

    const types = await outboxTypes(api.knex, orgId);
    expect(types.filter((t) => t === "benefit.created")).toHaveLength(9);
    const event = await api.knex("outbox").where({ organization_id: orgId, type: "benefit.created" }).orderBy("id").first();
    expect(event.payload).toMatchObject({
      type: "benefit.created",
      data: { id: custom.id, type: "custom", properties: { note: "Email us" } },
    });
  });

  it("validates each type's properties with 422 and a location", async () => {
    const foreignFile = (await createFile(api.knex, (await orgWithToken(api.knex)).org.id, { service: "downloadable" })).id;
    const pending = (await createFile(api.knex, orgId, { service: "downloadable", is_uploaded: false })).id;
    const media = (await createFile(api.knex, orgId, { service: "product_media" })).id;
    const deleted = (await createFile(api.knex, orgId, { service: "downloadable", deleted_at: new Date() })).id;
    const foreignMeter = (await createMeter(api.knex, (await orgWithToken(api.knex)).org.id)).id;
    const archivedMeter = (await createMeter(api.knex, orgId, { archived_at: new Date() })).id;
    const cases: [BenefitCreate, (string | number)[]][] = [
      [{ type: "custom", description: "ab", properties: {} }, ["body", "description"]],
      [{ type: "custom", description: "x".repeat(43), properties: {} }, ["body", "description"]],
      [
        { type: "custom", description: "Valid", properties: {}, organizationId: "8a0f3b1e-0000-4000-8000-000000000000" },
        ["body", "organization_id"],
      ],
      [
        { type: "license_keys", description: "Keys", properties: { expires: { ttl: 0, timeframe: "day" } } },
        ["body", "properties", "expires", "ttl"],
      ],
      [
        { type: "license_keys", description: "Keys", properties: { expires: { ttl: 458, timeframe: "year" } } },
        ["body", "properties", "expires", "ttl"],
      ],
      [
        { type: "license_keys", description: "Keys", properties: { activations: { limit: 0, enableCustomerAdmin: false } } },
        ["body", "properties", "activations", "limit"],
      ],
      [{ type: "license_keys", description: "Keys", properties: { limitUsage: 0 } }, ["body", "properties", "limit_usage"]],
      [{ type: "downloadables", description: "Files", properties: { files: [] } }, ["body", "properties", "files"]],
      [{ type: "downloadables", description: "Files", properties: { files: [foreignFile] } }, ["body", "properties", "files", 0]],
      [{ type: "downloadables", description: "Files", properties: { files: [fileId, pending] } }, ["body", "properties", "files", 1]],
      [{ type: "downloadables", description: "Files", properties: { files: [media] } }, ["body", "properties", "files", 0]],
      [{ type: "downloadables", description: "Files", properties: { files: [deleted] } }, ["body", "properties", "files", 0]],
      [{ type: "downloadables", description: "Files", properties: { files: ["not-a-uuid"] } }, ["body", "properties", "files", 0]],
      [{ type: "downloadables", description: "Files", properties: { files: [fileId, fileId] } }, ["body", "properties", "files", 1]],
      [
        { type: "downloadables", description: "Files", properties: { files: [fileId], archived: { [media]: true } } },
        ["body", "properties", "archived", media],
      ],
      [
        { type: "meter_credit", description: "Credits", properties: { units: 0, rollover: false, meterId } },
        ["body", "properties", "units"],
      ],
      [
        { type: "meter_credit", description: "Credits", properties: { units: 10, rollover: false, meterId: foreignMeter } },
        ["body", "properties", "meter_id"],
      ],
      [
        { type: "meter_credit", description: "Credits", properties: { units: 10, rollover: false, meterId: archivedMeter } },
        ["body", "properties", "meter_id"],
      ],
      [
        { type: "meter_credit", description: "Credits", properties: { units: 10, rollover: false, meterId: "nope" } },
        ["body", "properties", "meter_id"],
      ],
      [
        { type: "discord", description: "Discord", properties: { guildToken: "not-a-guild", roleId: ROLE, kickMember: false } },
        ["body", "properties", "guild_token"],
      ],
      [
        { type: "discord", description: "Discord", properties: { guildToken: GUILD, roleId: "admins", kickMember: false } },
        ["body", "properties", "role_id"],
      ],
      [
        {
          type: "github_repository",
          description: "Repo",
          properties: { repositoryOwner: "-bad-", repositoryName: "repo", permission: "pull" },
        },
        ["body", "properties", "repository_owner"],
      ],
      [
        {
          type: "github_repository",
          description: "Repo",
          properties: { repositoryOwner: "acme", repositoryName: "..", permission: "pull" },
        },
        ["body", "properties", "repository_name"],
      ],
    ];
    for (const [body, loc] of cases) {
      const err = await rejects(polar.benefits.create(body), HTTPValidationError);
      expect(locs(err), JSON.stringify(body)).toContainEqual(loc);
    }

    const { token } = await orgWithToken(api.knex);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    for (const body of [
      { type: "custom", properties: {} },
      { type: "payout", description: "Nope", properties: {} },
      { type: "license_keys", description: "Keys", properties: { expires: { ttl: 1, timeframe: "week" } } },
      {
        type: "github_repository",
        description: "Repo",
        properties: { repository_owner: "acme", repository_name: "r", permission: "owner" },
      },
      { type: "meter_credit", description: "Credits", properties: { units: 1, meter_id: meterId } },
      { type: "license_keys", description: "Keys", properties: { prefix: 12 } },
    ]) {
      const res = await fetch(`${api.url}/v1/benefits/`, { method: "POST", headers, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it("trims a license key prefix; an empty one means none", async () => {
    const trimmed = await polar.benefits.create({ type: "license_keys", description: "Keys", properties: { prefix: "  ACME " } });
    expect(trimmed.properties).toMatchObject({ prefix: "ACME" });
    const none = await polar.benefits.create({ type: "license_keys", description: "Keys", properties: { prefix: "   " } });
    expect(none.properties).toMatchObject({ prefix: null });
  });

  it("consults the provider verifier when one is configured", async () => {
    const seen: unknown[] = [];
    setBenefitVerifier({
      discord: async ({ guildToken, roleId }) => {
        seen.push({ guildToken, roleId });
        return guildToken === "signed-token"
          ? { guildId: GUILD }
          : { loc: ["guild_token"], msg: "Unknown guild token.", type: "guild_not_connected" };
      },
      github: async ({ owner, name }) => {
        seen.push({ owner, name });
        return name === "locked" ? { loc: ["repository_name"], msg: "No access.", type: "no_repository_access" } : null;
      },
    });
    const discord = await polar.benefits.create({
      type: "discord",
      description: "Verified",
      properties: { guildToken: "signed-token", roleId: ROLE, kickMember: false },
    });
    expect(discord.properties).toMatchObject({ guildId: GUILD, guildToken: "signed-token" });
    const refused = await rejects(
      polar.benefits.create({
        type: "discord",
        description: "Refused",
        properties: { guildToken: "forged", roleId: ROLE, kickMember: false },
      }),
      HTTPValidationError,
    );
    expect(refused.data$.detail).toEqual([
      { loc: ["body", "properties", "guild_token"], msg: "Unknown guild token.", type: "guild_not_connected" },
    ]);
    await polar.benefits.create({
      type: "github_repository",
      description: "Open",
      properties: { repositoryOwner: "acme", repositoryName: "open", permission: "push" },
    });
    const locked = await rejects(
      polar.benefits.create({
        type: "github_repository",
        description: "Locked",
        properties: { repositoryOwner: "acme", repositoryName: "locked", permission: "push" },
      }),
      HTTPValidationError,
    );
    expect(locs(locked)).toEqual([["body", "properties", "repository_name"]]);
    expect(seen).toEqual([
      { guildToken: "signed-token", roleId: ROLE },
      { guildToken: "forged", roleId: ROLE },
      { owner: "acme", name: "open" },
      { owner: "acme", name: "locked" },
    ]);
  });

  it("lists with every filter, sort key and paging", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    await c.benefits.create({ type: "custom", description: "Bravo support", properties: {}, metadata: { tier: "pro" } });
    await c.benefits.create({ type: "license_keys", description: "Alpha keys", properties: {}, metadata: { tier: "basic" } });
    await c.benefits.create({ type: "custom", description: "Charlie perks", properties: {}, metadata: { tier: "pro", seats: 5 } });
    const gone = await c.benefits.create({ type: "custom", description: "Deleted one", properties: {} });
    await c.benefits.delete({ id: gone.id });
    const names = (bs: Benefit[]) => bs.map((b) => b.description);
    expect(names(await collect(c, {}))).toEqual(["Charlie perks", "Alpha keys", "Bravo support"]);
    expect(names(await collect(c, { sorting: ["created_at"] }))).toEqual(["Bravo support", "Alpha keys", "Charlie perks"]);
    expect(names(await collect(c, { sorting: ["description"] }))).toEqual(["Alpha keys", "Bravo support", "Charlie perks"]);
    expect(names(await collect(c, { sorting: ["-description"] }))).toEqual(["Charlie perks", "Bravo support", "Alpha keys"]);
    expect(names(await collect(c, { sorting: ["type", "description"] }))).toEqual(["Bravo support", "Charlie perks", "Alpha keys"]);
    expect(names(await collect(c, { sorting: ["-type", "description"] }))).toEqual(["Alpha keys", "Bravo support", "Charlie perks"]);
    expect(names(await collect(c, { organizationId: org.id }))).toHaveLength(3);
    expect(names(await collect(c, { organizationId: orgId }))).toEqual([]);
    expect(names(await collect(c, { typeFilter: "license_keys" }))).toEqual(["Alpha keys"]);
    expect(names(await collect(c, { typeFilter: ["custom", "license_keys"] }))).toHaveLength(3);
    expect(names(await collect(c, { query: "SUPPORT" }))).toEqual(["Bravo support"]);
    expect(names(await collect(c, { metadata: { tier: "pro" }, sorting: ["description"] }))).toEqual(["Bravo support", "Charlie perks"]);
    expect(names(await collect(c, { metadata: { tier: ["pro", "basic"], seats: 5 } }))).toEqual(["Charlie perks"]);
    const first = await c.benefits.list({ limit: 2, sorting: ["description"] });
    expect(first.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
    expect(names(first.result.items)).toEqual(["Alpha keys", "Bravo support"]);
    const second = await c.benefits.list({ limit: 2, page: 2, sorting: ["description"] });
    expect(names(second.result.items)).toEqual(["Charlie perks"]);
    const res = await fetch(`${api.url}/v1/benefits/?sorting=name`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(422);
    // 0.49.0's id filters: these benefits, all but these.
    const newer = api.client049(token);
    const [alpha, bravo] = ["Alpha keys", "Bravo support"].map((d) => first.result.items.find((b) => b.description === d)?.id ?? "");
    const described = async (req: Parameters<typeof newer.benefits.list>[0]) =>
      (await newer.benefits.list(Object.assign({ sorting: ["description" as const] }, req))).result.items.map((b) => b.description);
    expect(await described({ id: alpha })).toEqual(["Alpha keys"]);
    expect(await described({ id: [alpha, bravo] })).toEqual(["Alpha keys", "Bravo support"]);
    expect(await described({ excludeId: alpha })).toEqual(["Bravo support", "Charlie perks"]);
    expect(await described({ id: [alpha, bravo], excludeId: [bravo] })).toEqual(["Alpha keys"]);
  });

  it("updates description, metadata and properties; the type never changes", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const meter = await createMeter(api.knex, org.id);
    const b = await c.benefits.create({
      type: "meter_credit",
      description: "Credits",
      properties: { units: 10, rollover: false, meterId: meter.id },
    });
    const u = await c.benefits.update({
      id: b.id,
      requestBody: {
        type: "meter_credit",
        description: "More credits",
        metadata: { v: 2 },
        properties: { units: 50, rollover: true, meterId: meter.id },
      },
    });
    expect(u).toMatchObject({
      description: "More credits",
      metadata: { v: 2 },
      properties: { units: 50, rollover: true, meterId: meter.id },
    });
    expect(u.modifiedAt).toBeInstanceOf(Date);
    const onlyDescription = await c.benefits.update({ id: b.id, requestBody: { type: "meter_credit", description: "Credits v3" } });
    expect(onlyDescription.properties).toEqual(u.properties);
    const typeErr = await rejects(
      c.benefits.update({ id: b.id, requestBody: { type: "custom", description: "Nope" } }),
      HTTPValidationError,
    );
    expect(locs(typeErr)).toEqual([["body", "type"]]);
    const propErr = await rejects(
      c.benefits.update({ id: b.id, requestBody: { type: "meter_credit", properties: { units: -1, rollover: true, meterId: meter.id } } }),
      HTTPValidationError,
    );
    expect(locs(propErr)).toEqual([["body", "properties", "units"]]);
    const descErr = await rejects(
      c.benefits.update({ id: b.id, requestBody: { type: "meter_credit", description: "no" } }),
      HTTPValidationError,
    );
    expect(locs(descErr)).toEqual([["body", "description"]]);
    expect((await outboxTypes(api.knex, org.id)).filter((t) => t === "benefit.updated")).toHaveLength(2);
  });

  it("deletes with 204, detaching from products; 403 NotPermitted when not deletable", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const b = await c.benefits.create({ type: "custom", description: "Stickers", properties: {} });
    const p = await c.products.create({ name: "Pack", recurringInterval: null, prices: [{ amountType: "free" }] });
    await c.products.updateBenefits({ id: p.id, productBenefitsUpdate: { benefits: [b.id] } });
    await c.benefits.delete({ id: b.id });
    await rejects(c.benefits.get({ id: b.id }), ResourceNotFound);
    await rejects(c.benefits.delete({ id: b.id }), ResourceNotFound);
    await rejects(c.benefits.update({ id: b.id, requestBody: { type: "custom", description: "Back" } }), ResourceNotFound);
    expect((await c.products.get({ id: p.id })).benefits).toEqual([]);
    expect((await api.knex("benefits").where({ id: b.id }).first()).deleted_at).toBeInstanceOf(Date);
    const types = await outboxTypes(api.knex, org.id);
    expect(types.at(-1)).toBe("benefit.updated");

    const locked = await createBenefit(api.knex, org.id, { deletable: false });
    const err = await rejects(c.benefits.delete({ id: locked.id }), NotPermitted);
    expect(err.data$.error).toBe("NotPermitted");
    expect((await api.knex("benefits").where({ id: locked.id }).first()).deleted_at).toBeNull();
  });

  it("keeps a benefit's visibility, where its type allows one, and shows customers only the public ones", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const [older, newer] = [api.client(token), api.client049(token)];
    const file = await createFile(api.knex, org.id, { service: "downloadable", name: "guide.pdf", mime_type: "application/pdf" });
    const shown = await newer.benefits.create({ type: "custom", description: "Stickers", properties: {} });
    expect(shown).toMatchObject({ visibility: "public", visibilityConfigurable: true, isDeleted: false });
    const hidden = await newer.benefits.create({ type: "custom", description: "Internal flag", visibility: "private", properties: {} });
    expect(hidden).toMatchObject({ visibility: "private", visibilityConfigurable: true });
    const downloads = await newer.benefits.create({ type: "downloadables", description: "Guide", properties: { files: [file.id] } });
    expect(downloads).toMatchObject({ visibility: "public", visibilityConfigurable: false });
    // A customer has to act on downloads in the portal: they stay public (0.49.0 cannot even send it).
    const refused = await fetch(`${api.url}/v1/benefits/${downloads.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "downloadables", visibility: "private" }),
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0].loc).toEqual(["body", "visibility"]);
    expect((await newer.benefits.update({ id: hidden.id, requestBody: { type: "custom", visibility: "draft" } })).visibility).toBe("draft");
    // 0.34.17 updates it as before; the visibility stays.
    await older.benefits.update({ id: hidden.id, requestBody: { type: "custom", description: "Internal flags" } });
    expect(await newer.benefits.get({ id: hidden.id })).toMatchObject({ description: "Internal flags", visibility: "draft" });

    // The storefront's product and the customer's grants show the public benefit only.
    const product = await older.products.create({ name: "Pack", recurringInterval: null, prices: [{ amountType: "free" }] });
    await older.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [shown.id, hidden.id] } });
    expect((await older.products.get({ id: product.id })).benefits.map((b) => b.id).sort()).toEqual([shown.id, hidden.id].sort());
    const storefront = await (await fetch(`${api.url}/v1/customer-portal/organizations/${org.slug}`)).json();
    const listed = storefront.products.find((p: { id: string }) => p.id === product.id);
    expect(listed.benefits.map((b: { id: string; is_deleted: boolean }) => [b.id, b.is_deleted])).toEqual([[shown.id, false]]);
    const customer = await createCustomer(api.knex, org.id);
    for (const b of [shown, hidden]) await createBenefitGrant(api.knex, b.id, customer.id);
    const session = await createCustomerSessionToken(api.knex, customer.id);
    const grants = await (
      await fetch(`${api.url}/v1/customer-portal/benefit-grants/`, { headers: { authorization: `Bearer ${session}` } })
    ).json();
    expect(grants.items.map((g: { benefit_id: string }) => g.benefit_id)).toEqual([shown.id]);
    const portal049 = new Polar049({ serverURL: api.url }).customerPortal.benefitGrants;
    const listed049 = await portal049.list({ customerSession: session }, {});
    expect(listed049.result.items.map((g) => [g.benefitId, g.benefit.isDeleted])).toEqual([[shown.id, false]]);
    // 0.49.0's filters: by the benefit's description, and by member (a grant is a customer's: none is a member's).
    await createBenefitGrant(api.knex, downloads.id, customer.id);
    const portalIds = async (req: Parameters<typeof portal049.list>[1]) =>
      (await portal049.list({ customerSession: session }, req)).result.items.map((g) => g.benefitId).sort();
    expect(await portalIds({})).toEqual([shown.id, downloads.id].sort());
    expect(await portalIds({ query: "stICK" })).toEqual([shown.id]);
    expect(await portalIds({ query: "nothing like it" })).toEqual([]);
    expect(await portalIds({ memberId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);

    // Deleted: the last event about it says so.
    await newer.benefits.delete({ id: shown.id });
    const event = await api.knex("outbox").where({ organization_id: org.id, type: "benefit.updated" }).orderBy("id", "desc").first();
    expect(event.payload.data).toMatchObject({ id: shown.id, is_deleted: true });
  });

  it("lists a benefit's grants with their customer, filtered and paged", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const c = api.client(token);
    const benefit = await c.benefits.create({ type: "custom", description: "Support", properties: { note: "hi" } });
    const other = await c.benefits.create({ type: "custom", description: "Other", properties: {} });
    const alice = await createCustomer(api.knex, org.id, { email: "alice@example.com", external_id: "a-1" });
    const bob = await createCustomer(api.knex, org.id, { email: "bob@example.com" });
    const t0 = Date.parse("2025-01-01T00:00:00Z");
    const g1 = await createBenefitGrant(api.knex, benefit.id, alice.id, {
      created_at: new Date(t0),
      order_id: "8a0f3b1e-0000-4000-8000-000000000001",
    });
    const g2 = await createBenefitGrant(api.knex, benefit.id, bob.id, {
      created_at: new Date(t0 + 1000),
      granted_at: null,
      revoked_at: new Date(t0 + 5000),
      subscription_id: "8a0f3b1e-0000-4000-8000-000000000002",
      error: JSON.stringify({ message: "Boom", type: "BenefitActionRequiredError", timestamp: "2025-01-01T00:00:05Z" }),
    });
    const g3 = await createBenefitGrant(api.knex, benefit.id, bob.id, {
      created_at: new Date(t0 + 2000),
      properties: { license_key_id: "k", display_key: "****-1234" },
    });
    await createBenefitGrant(api.knex, other.id, alice.id);

    const all = [];
    for await (const page of await c.benefits.grants({ id: benefit.id, limit: 2 })) all.push(...page.result.items);
    expect(all.map((g) => g.id)).toEqual([g3.id, g2.id, g1.id]);
    const first = all[2];
    expect(first).toMatchObject({
      benefitId: benefit.id,
      customerId: alice.id,
      isGranted: true,
      isRevoked: false,
      orderId: "8a0f3b1e-0000-4000-8000-000000000001",
      subscriptionId: null,
      properties: {},
    });
    expect(first.customer).toMatchObject({ id: alice.id, email: "alice@example.com", externalId: "a-1", organizationId: org.id });
    expect(all[1]).toMatchObject({
      isGranted: false,
      isRevoked: true,
      grantedAt: null,
      error: { message: "Boom", type: "BenefitActionRequiredError" },
    });
    // The grant's properties are on the wire (the client's union decodes them as its first,
    // all-optional member and keeps none of them).
    const raw = await fetch(`${api.url}/v1/benefits/${benefit.id}/grants?customer_id=${bob.id}&is_granted=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await raw.json()) as { items: { properties: unknown }[] }).items[0].properties).toEqual({
      license_key_id: "k",
      display_key: "****-1234",
    });
    // 0.49.0 reads each grant with its benefit and its customer's type.
    const newer = (await api.client049(token).benefits.grants({ id: benefit.id, customerId: alice.id })).result.items;
    expect(newer).toMatchObject([
      { id: g1.id, benefit: { id: benefit.id, description: "Support", visibility: "public" }, customer: { type: "individual" } },
    ]);
    // 0.49.0's member filter: a grant is a customer's, never a member's (there are none).
    expect((await api.client049(token).benefits.grants({ id: benefit.id, memberId: alice.id })).result.items).toEqual([]);

    const ids = async (req: object) => (await c.benefits.grants({ id: benefit.id, ...req })).result.items.map((g) => g.id);
    expect(await ids({ isGranted: true })).toEqual([g3.id, g1.id]);
    expect(await ids({ isGranted: false })).toEqual([g2.id]);
    expect(await ids({ customerId: alice.id })).toEqual([g1.id]);
    expect(await ids({ customerId: [alice.id, bob.id], isGranted: true })).toEqual([g3.id, g1.id]);
    expect((await rejects(ids({ customerId: "not-a-uuid" }), HTTPValidationError)).detail?.[0].loc).toEqual(["query", "customer_id", 0]);

    await rejects(polar.benefits.grants({ id: benefit.id }), ResourceNotFound);
    await rejects(c.benefits.grants({ id: "8a0f3b1e-0000-4000-8000-000000000000" }), ResourceNotFound);
  });

  it("isolates organizations: 404 for foreign and unknown ids, 401 and 403 for tokens", async () => {
    const other = await orgWithToken(api.knex);
    const foreign = await api.client(other.token).benefits.create({ type: "custom", description: "Secret", properties: {} });
    await rejects(polar.benefits.get({ id: foreign.id }), ResourceNotFound);
    await rejects(polar.benefits.get({ id: "not-a-uuid" }), ResourceNotFound);
    await rejects(polar.benefits.update({ id: foreign.id, requestBody: { type: "custom", description: "Hijacked" } }), ResourceNotFound);
    await rejects(polar.benefits.delete({ id: foreign.id }), ResourceNotFound);
    expect((await api.knex("benefits").where({ id: foreign.id }).first()).description).toBe("Secret");
    expect((await collect(polar, {})).map((b) => b.id)).not.toContain(foreign.id);
    expect((await rejects(api.client("polar_oat_nope").benefits.list({}), SDKError)).statusCode).toBe(401);
    const readOnly = await orgWithToken(api.knex, { scopes: ["benefits:read"] });
    expect((await api.client(readOnly.token).benefits.list({})).result.items).toEqual([]);
    const denied = await rejects(
      api.client(readOnly.token).benefits.create({ type: "custom", description: "Nope", properties: {} }),
      SDKError,
    );
    expect(denied.statusCode).toBe(403);
  });
});
