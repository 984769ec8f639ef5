// Walks every operation of the contract that takes a merchant credential. Scopes: a token without
// the operation's scopes gets 403 NotPermitted, one with exactly them never 401 or 403. Roles: a
// member's cookie is refused only the settings, tokens and webhook endpoints. Tenants: another
// organization's owner gets 404 / 403 / 422 on every record of the first, sees none and changes none.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { OperationId } from "../../generated/handlers.js";
import { operations } from "../../generated/operations.js";
import { MEMBER_WITHHELD_SCOPES } from "../../server/auth/scopes.js";
import { ALL_SCOPES } from "../../server/kit/auth.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import {
  type Browser,
  createBenefit,
  createCustomer,
  createCustomField,
  createDiscount,
  createFile,
  createLicenseKey,
  createMeter,
  createOrder,
  createPayment,
  createProductWithPrice,
  createSubscriptionFixture,
  createWebhookEndpoint,
  ownerWithOrganization,
  signedOutClient,
  signUpVerified,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();

type Meta = (typeof operations)[OperationId];
const merchantOps = (Object.entries(operations) as [OperationId, Meta][]).filter(([, m]) => m.security === "access_token");
/** Done as a user, never with an organization's token (server/auth/callers.ts). */
const USER_OPS = new Set<string>(["organizations:create", "oauth2:authorize"]);
/** Past authentication and authorization: anything but 401, 403 and a server error. */
const through = (status: number) => status !== 401 && status !== 403 && status < 500;

function url(meta: Meta, ids: Record<string, string> = {}): string {
  return meta.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? randomUUID()));
}

async function call(meta: Meta, headers: Record<string, string>, ids?: Record<string, string>): Promise<{ status: number; text: string }> {
  const write = meta.method !== "get" && meta.method !== "delete";
  const res = await fetch(`${api.url}${url(meta, ids)}`, {
    method: meta.method.toUpperCase(),
    headers: { ...headers, ...(write ? { "content-type": "application/json" } : {}) },
    body: write ? "{}" : undefined,
  });
  return { status: res.status, text: await res.text() };
}

describe("scopes on every operation", () => {
  it("refuses an operation to a token without its scopes (403), and lets one with them through (no 401/403)", async () => {
    const org = await ownerWithOrganization(api.url);
    const wrong: string[] = [];
    for (const [id, meta] of merchantOps) {
      if (meta.scopes.length) {
        const without = ALL_SCOPES.filter((s) => !(meta.scopes as readonly string[]).includes(s));
        const token = await mintOrganizationToken(api.knex, org.organizationId, { scopes: without });
        const denied = await call(meta, { authorization: `Bearer ${token}` });
        if (denied.status !== 403 || !denied.text.includes("NotPermitted")) wrong.push(`${id} without its scopes: ${denied.status}`);
      }
      const token = await mintOrganizationToken(api.knex, org.organizationId, { scopes: [...meta.scopes] });
      const allowed = await call(meta, { authorization: `Bearer ${token}` });
      const expectDenied = USER_OPS.has(id);
      if (expectDenied ? allowed.status !== 403 : !through(allowed.status)) {
        wrong.push(`${id} with ${meta.scopes.join(" ") || "no scopes"}: ${allowed.status} ${allowed.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(merchantOps.length).toBeGreaterThan(100);
  }, 120_000);

  it("gives a member every operation but settings, access tokens and webhook endpoints", async () => {
    const owner = await ownerWithOrganization(api.url);
    const email = uniqueEmail("member");
    const invited = await owner.browser.client.organization.inviteMember({ email, role: "member", organizationId: owner.organizationId });
    const member = signedOutClient(api.url);
    await signUpVerified(member, { email, name: "Member" });
    await member.client.organization.acceptInvitation({ invitationId: invited.data!.id });
    await member.client.organization.setActive({ organizationId: owner.organizationId });
    const wrong: string[] = [];
    for (const [id, meta] of merchantOps) {
      if (USER_OPS.has(id)) continue;
      const withheld = meta.scopes.length > 0 && meta.scopes.every((s) => MEMBER_WITHHELD_SCOPES.has(s));
      const got = await call(meta, member.headers());
      if (withheld ? got.status !== 403 : !through(got.status)) wrong.push(`${id}: ${got.status}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe("another organization's member", () => {
  let victim: { organizationId: string; ids: Record<string, Record<string, string>>; all: string[] };
  let outsider: Browser;

  /** Every row of the organization, hashed, to see that nothing of it changed. */
  async function fingerprint(organizationId: string): Promise<string> {
    const tables = [
      "products",
      "customers",
      "discounts",
      "custom_fields",
      "benefits",
      "meters",
      "webhook_endpoints",
      "orders",
      "payments",
      "license_keys",
      "subscriptions",
      "files",
      "organization_access_tokens",
      "checkouts",
      "checkout_links",
    ];
    const parts: string[] = [JSON.stringify(await api.knex("organizations").where({ id: organizationId }).first())];
    for (const table of tables) parts.push(JSON.stringify(await api.knex(table).where({ organization_id: organizationId }).orderBy("id")));
    return parts.join("\n");
  }

  beforeAll(async () => {
    const a = await ownerWithOrganization(api.url, "Victim");
    const org = a.organizationId;
    const token = await mintOrganizationToken(api.knex, org);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const customer = await createCustomer(api.knex, org, { external_id: `ext-${randomUUID().slice(0, 8)}` });
    const { product, price } = await createProductWithPrice(api.knex, org);
    const order = await createOrder(api.knex, org, { customerId: customer.id, productId: product.id, productPriceId: price.id });
    const license = await createLicenseKey(api.knex, org, { customerId: customer.id });
    const subscription = await createSubscriptionFixture(api.knex, { startedAt: new Date(), organizationId: org });
    const checkoutLink = (await (
      await fetch(`${api.url}/v1/checkout-links/`, {
        method: "POST",
        headers,
        body: JSON.stringify({ payment_processor: "stripe", product_id: product.id }),
      })
    ).json()) as { id: string };
    const checkout = (await (
      await fetch(`${api.url}/v1/checkouts/`, { method: "POST", headers, body: JSON.stringify({ products: [product.id] }) })
    ).json()) as { id: string };
    const oat = await api.knex("organization_access_tokens").where({ organization_id: org }).first("id");
    const byPath: Record<string, Record<string, string>> = {
      "/v1/products/": { id: product.id },
      "/v1/customers/": { id: customer.id, external_id: customer.external_id as string },
      "/v1/discounts/": { id: (await createDiscount(api.knex, org)).id },
      "/v1/custom-fields/": { id: (await createCustomField(api.knex, org)).id },
      "/v1/benefits/": { id: (await createBenefit(api.knex, org)).id },
      "/v1/meters/": { id: (await createMeter(api.knex, org)).id },
      "/v1/webhooks/endpoints/": { id: (await createWebhookEndpoint(api.knex, org)).id },
      "/v1/orders/": { id: order.id },
      "/v1/payments/": { id: (await createPayment(api.knex, org, { order_id: order.id })).id },
      "/v1/license-keys/": { id: license.id },
      "/v1/subscriptions/": { id: subscription.subscription.id },
      "/v1/files/": { id: (await createFile(api.knex, org)).id },
      "/v1/checkout-links/": { id: checkoutLink.id },
      "/v1/checkouts/": { id: checkout.id },
      "/v1/organizations/": { id: org },
      "/v1/organization-access-tokens/": { id: oat.id },
    };
    const all = [
      org,
      customer.id,
      product.id,
      price.id,
      order.id,
      license.id,
      subscription.subscription.id,
      checkoutLink.id,
      checkout.id,
      ...Object.values(byPath).flatMap((ids) => Object.values(ids)),
    ];
    victim = { organizationId: org, ids: byPath, all: [...new Set(all)] };
    outsider = (await ownerWithOrganization(api.url, "Outsider")).browser;
  }, 120_000);

  it("reaches none of its records, and changes none", async () => {
    const before = await fingerprint(victim.organizationId);
    const wrong: string[] = [];
    for (const [id, meta] of merchantOps) {
      if (USER_OPS.has(id)) continue;
      const prefix = Object.keys(victim.ids).find((p) => meta.path.startsWith(p) || `${meta.path}/`.startsWith(p));
      const ids = prefix ? victim.ids[prefix] : {};
      const got = await call(meta, outsider.headers(), ids);
      const leaked = victim.all.filter((v) => got.text.includes(v));
      if (leaked.length) wrong.push(`${id}: answered ${got.status} naming ${leaked.join(", ")}`);
      const addressed = meta.path.includes("{");
      if (addressed && ![403, 404, 422, 501].includes(got.status)) wrong.push(`${id}: ${got.status} for another organization's record`);
      if (!addressed && got.status >= 500 && got.status !== 501) wrong.push(`${id}: ${got.status}`);
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint(victim.organizationId)).toBe(before);
  }, 120_000);
});
