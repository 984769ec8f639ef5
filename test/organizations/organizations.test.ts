// Organizations through the official client: create (by a signed-in user, who becomes the owner)
// with every setting, get, list with its filter and sort keys, update, and tenant isolation.
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import { SDKError } from "@polar-sh/sdk/models/errors/sdkerror.js";
import { HTTPValidationError as HTTPValidationError049 } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { NotPermitted } from "@polar-sh/sdk/models/errors/notpermitted.js";
import { mintOrganizationToken } from "../../server/organization-access-tokens/service.js";
import {
  type Browser,
  createOrganization,
  orgWithToken,
  outboxTypes,
  rejects,
  signedOutClient,
  signUpVerified,
  uniqueEmail,
  useTestApi,
} from "../harness/index.js";

const api = useTestApi();
/** A 422's issues as [loc, type] pairs. */
const issue = async (p: Promise<unknown>) => (await rejects(p, HTTPValidationError)).data$.detail?.map((d) => [d.loc.join("."), d.type]);
const slug = () => `acme-${randomUUID().slice(0, 8)}`;

/** A signed-in user (no organization yet) and the official client calling with their cookie. */
async function signedInUser(): Promise<{ browser: Browser; userId: string }> {
  const browser = signedOutClient(api.url);
  const { id } = await signUpVerified(browser, { email: uniqueEmail("founder"), name: "Founder" });
  return { browser, userId: id };
}

describe("organizations", () => {
  it("creates an organization with every setting and defaults the rest; its creator owns it", async () => {
    const { browser, userId } = await signedInUser();
    const polar = browser.polar();
    const s = slug();
    const org = await polar.organizations.create({
      name: "Acme Corp",
      slug: s,
      email: "billing@acme.example",
      website: "https://acme.example",
      socials: [
        { platform: "github", url: "https://github.com/acme" },
        { platform: "x", url: "https://x.com/acme" },
      ],
      details: {
        about: "We make anvils",
        productDescription: "Anvils as a service",
        intendedUse: "Subscriptions",
        customerAcquisition: ["website", "word_of_mouth"],
        futureAnnualRevenue: 1_000_000,
        switching: true,
        switchingFrom: "stripe",
        previousAnnualRevenue: 50_000,
      },
      featureSettings: { issueFundingEnabled: true },
      subscriptionSettings: { allowMultipleSubscriptions: true, allowCustomerUpdates: false, prorationBehavior: "invoice" },
      notificationSettings: { newOrder: false, newSubscription: true },
    });
    expect(org).toMatchObject({
      name: "Acme Corp",
      slug: s,
      email: "billing@acme.example",
      status: "created",
      featureSettings: { issueFundingEnabled: true },
      subscriptionSettings: { allowMultipleSubscriptions: true, allowCustomerUpdates: false, prorationBehavior: "invoice" },
      notificationSettings: { newOrder: false, newSubscription: true },
    });
    expect(org.socials).toHaveLength(2);
    expect(org.detailsSubmittedAt).toBeInstanceOf(Date);
    const stored = await api.knex("organizations").where({ id: org.id }).first();
    expect(stored.details).toMatchObject({ switching_from: "stripe", previous_annual_revenue: 50_000 });

    expect(await api.knex("members").where({ organization_id: org.id }).select("user_id", "role")).toEqual([
      { user_id: userId, role: "owner" },
    ]);
    // better-auth sees the same organization, with its creator as owner.
    const listed = await browser.client.organization.list();
    expect(listed.data?.map((o) => o.slug)).toContain(s);

    const bare = await polar.organizations.create({ name: "Bare Org", slug: slug() });
    expect(bare).toMatchObject({
      avatarUrl: null,
      email: null,
      socials: [],
      detailsSubmittedAt: null,
      featureSettings: { issueFundingEnabled: false },
      subscriptionSettings: { allowMultipleSubscriptions: false, allowCustomerUpdates: true, prorationBehavior: "prorate" },
      notificationSettings: { newOrder: true, newSubscription: true },
    });
  });

  it("rejects a taken or malformed slug with 422", async () => {
    const { org } = await orgWithToken(api.knex);
    const polar = (await signedInUser()).browser.polar();
    const taken = await rejects(polar.organizations.create({ name: "Copy", slug: org.slug }), HTTPValidationError);
    expect(taken.data$.detail?.[0].loc).toEqual(["body", "slug"]);
    for (const bad of ["No Spaces", "ab", "-dash-", "UPPER"]) {
      const err = await rejects(polar.organizations.create({ name: "Valid name", slug: bad }), HTTPValidationError);
      expect(err.data$.detail?.[0].loc).toEqual(["body", "slug"]);
    }
    await rejects(polar.organizations.create({ name: "x", slug: slug() }), HTTPValidationError);
  });

  it("gets, lists and updates only the token's organization", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const other = await createOrganization(api.knex);

    const got = await polar.organizations.get({ id: org.id });
    expect(got.slug).toBe(org.slug);
    await rejects(polar.organizations.get({ id: other.id }), ResourceNotFound);
    await rejects(polar.organizations.get({ id: randomUUID() }), ResourceNotFound);
    await rejects(polar.organizations.update({ id: other.id, organizationUpdate: { name: "Taken over" } }), ResourceNotFound);
    expect((await api.knex("organizations").where({ id: other.id }).first()).name).toBe(other.name);

    const page = await polar.organizations.list({});
    expect(page.result.items.map((o) => o.id)).toEqual([org.id]);
    expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    for (const sorting of [["created_at"], ["-created_at"], ["slug"], ["-slug"], ["name"], ["-name"]] as const) {
      expect((await polar.organizations.list({ sorting: [...sorting] })).result.items).toHaveLength(1);
    }
    expect((await polar.organizations.list({ slug: org.slug })).result.items).toHaveLength(1);
    expect((await polar.organizations.list({ slug: other.slug })).result.items).toHaveLength(0);

    const updated = await polar.organizations.update({
      id: org.id,
      organizationUpdate: {
        name: "Renamed Org",
        website: "https://renamed.example",
        subscriptionSettings: { allowMultipleSubscriptions: true, allowCustomerUpdates: true, prorationBehavior: "invoice" },
        notificationSettings: { newOrder: false, newSubscription: false },
        featureSettings: { issueFundingEnabled: true },
        details: { about: "a", productDescription: "b", intendedUse: "c", customerAcquisition: [], futureAnnualRevenue: 10 },
      },
    });
    expect(updated).toMatchObject({
      name: "Renamed Org",
      website: "https://renamed.example",
      featureSettings: { issueFundingEnabled: true },
    });
    expect(updated.subscriptionSettings.prorationBehavior).toBe("invoice");
    expect(updated.detailsSubmittedAt).toBeInstanceOf(Date);
    expect(updated.modifiedAt).toBeInstanceOf(Date);
    expect(await outboxTypes(api.knex, org.id)).toEqual(["organization.updated"]);
    const untouched = await polar.organizations.update({ id: org.id, organizationUpdate: {} });
    expect(untouched.name).toBe("Renamed Org");
  });

  it("shows and updates the settings the newest client knows, and 0.34.17 still reads and writes its own", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const [older, newer] = [api.client(token), api.client049(token)];
    const read = await newer.organizations.get({ id: org.id });
    expect(read).toMatchObject({
      prorationBehavior: "prorate",
      allowCustomerUpdates: true,
      ssoEnforced: false,
      defaultPresentmentCurrency: "usd",
      defaultTaxBehavior: "location",
      accountId: null,
      payoutAccountId: null,
      capabilities: {
        checkoutPayments: true,
        subscriptionRenewals: true,
        payouts: false,
        refunds: true,
        apiAccess: true,
        dashboardAccess: true,
      },
      // Benefits are kept through the payment retries (2 + 5 + 7 + 7 days by default).
      subscriptionSettings: {
        allowMultipleSubscriptions: false,
        allowCustomerUpdates: true,
        prorationBehavior: "prorate",
        benefitRevocationGracePeriod: 21,
        preventTrialAbuse: false,
      },
      customerPortalSettings: { usage: { show: true }, subscription: { updateSeats: true, updatePlan: true } },
    });
    expect(Object.values(read.customerEmailSettings).every((on) => on === true)).toBe(true);

    const updated = await newer.organizations.update({
      id: org.id,
      organizationUpdate: {
        subscriptionSettings: {
          allowMultipleSubscriptions: true,
          allowCustomerUpdates: true,
          prorationBehavior: "invoice",
          benefitRevocationGracePeriod: 21,
          preventTrialAbuse: true,
        },
        customerPortalSettings: { usage: { show: false }, subscription: { updateSeats: false, updatePlan: false } },
        customerEmailSettings: { ...read.customerEmailSettings, orderConfirmation: false, subscriptionCycled: false },
        defaultPresentmentCurrency: "eur",
        defaultTaxBehavior: "inclusive",
        ssoEnforced: false,
      },
    });
    expect(updated).toMatchObject({
      prorationBehavior: "invoice",
      // The portal's update_plan is the same setting, and wins over the subscription settings' copy.
      allowCustomerUpdates: false,
      subscriptionSettings: {
        allowMultipleSubscriptions: true,
        allowCustomerUpdates: false,
        prorationBehavior: "invoice",
        preventTrialAbuse: true,
      },
      customerPortalSettings: { usage: { show: false }, subscription: { updateSeats: false, updatePlan: false } },
      customerEmailSettings: { orderConfirmation: false, subscriptionCycled: false, subscriptionUpdated: true },
      defaultPresentmentCurrency: "eur",
      defaultTaxBehavior: "inclusive",
    });
    // A denied organization takes no payment.
    await api.knex("organizations").where({ id: org.id }).update({ status: "denied" });
    expect((await newer.organizations.get({ id: org.id })).capabilities).toMatchObject({ checkoutPayments: false, apiAccess: true });

    // 0.34.17 reads the organization and updates its three subscription settings; the newer ones stay.
    expect((await older.organizations.get({ id: org.id })).subscriptionSettings).toEqual({
      allowMultipleSubscriptions: true,
      allowCustomerUpdates: false,
      prorationBehavior: "invoice",
    });
    await older.organizations.update({
      id: org.id,
      organizationUpdate: {
        subscriptionSettings: { allowMultipleSubscriptions: false, allowCustomerUpdates: true, prorationBehavior: "prorate" },
      },
    });
    expect(await newer.organizations.get({ id: org.id })).toMatchObject({
      prorationBehavior: "prorate",
      allowCustomerUpdates: true,
      subscriptionSettings: { preventTrialAbuse: true },
      customerPortalSettings: { usage: { show: false }, subscription: { updateSeats: false, updatePlan: true } },
    });

    // What is not offered is refused, by name.
    const refuse = (organizationUpdate: Parameters<typeof newer.organizations.update>[0]["organizationUpdate"]) =>
      rejects(newer.organizations.update({ id: org.id, organizationUpdate }), HTTPValidationError049).then((e) =>
        e.detail?.map((d) => d.loc.join(".")),
      );
    expect(await refuse({ ssoEnforced: true })).toEqual(["body.sso_enforced"]);
    expect(await refuse({ subscriptionSettings: { ...updated.subscriptionSettings, benefitRevocationGracePeriod: 3 } })).toEqual([
      "body.subscription_settings.benefit_revocation_grace_period",
    ]);
    expect(
      await refuse({
        customerPortalSettings: { usage: { show: true }, subscription: { updateSeats: true, updatePlan: true, pause: true } },
      }),
    ).toEqual(["body.customer_portal_settings.subscription.pause"]);
    const raw = await fetch(`${api.url}/v1/organizations/${org.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ default_presentment_currency: "xyz", default_tax_behavior: "sometimes" }),
    });
    expect(raw.status).toBe(422);
    expect((await newer.organizations.get({ id: org.id })).defaultPresentmentCurrency).toBe("eur");
  });

  it("refuses a link that is not an http(s) URL: website, avatar_url, socials", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    const cases: [object, string, string][] = [
      [{ website: "javascript:alert(document.cookie)" }, "body.website", "url_scheme"],
      [{ website: " JavaScript:alert(1)" }, "body.website", "url_scheme"],
      [{ avatarUrl: "data:image/svg+xml,<svg onload=alert(1)>" }, "body.avatar_url", "url_scheme"],
      [{ avatarUrl: "not a url" }, "body.avatar_url", "url_parsing"],
      [{ website: `https://acme.example/${"a".repeat(2083)}` }, "body.website", "url_too_long"],
      [
        {
          socials: [
            { platform: "x", url: "https://x.com/acme" },
            { platform: "other", url: "javascript:alert(1)" },
          ],
        },
        "body.socials.1.url",
        "url_scheme",
      ],
    ];
    for (const [organizationUpdate, loc, type] of cases) {
      expect(await issue(polar.organizations.update({ id: org.id, organizationUpdate }))).toEqual([[loc, type]]);
    }
    const stored = await api.knex("organizations").where({ id: org.id }).first();
    expect(stored).toMatchObject({ website: null, avatar_url: null, socials: [] });

    const founder = (await signedInUser()).browser.polar();
    const s = slug();
    expect(await issue(founder.organizations.create({ name: "Evil Corp", slug: s, website: "javascript:alert(1)" }))).toEqual([
      ["body.website", "url_scheme"],
    ]);
    expect(await api.knex("organizations").where({ slug: s }).first()).toBeUndefined();
    const fine = await polar.organizations.update({
      id: org.id,
      organizationUpdate: { website: "http://acme.example/about?x={y}", avatarUrl: "https://cdn.acme.example/logo.png" },
    });
    expect(fine).toMatchObject({ website: "http://acme.example/about?x={y}", avatarUrl: "https://cdn.acme.example/logo.png" });
  });

  it("refuses a support email that is not an address or is longer than RFC 5321 allows", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const polar = api.client(token);
    for (const email of ["javascript:alert(1)", "no-at-sign", `${"s".repeat(65)}@acme.example`, `support@${"d".repeat(250)}.example`]) {
      expect(await issue(polar.organizations.update({ id: org.id, organizationUpdate: { email } })), email).toEqual([
        ["body.email", "value_error"],
      ]);
    }
    expect((await api.knex("organizations").where({ id: org.id }).first()).email).toBeNull();
    expect((await polar.organizations.update({ id: org.id, organizationUpdate: { email: " help@acme.example " } })).email).toBe(
      "help@acme.example",
    );
    expect((await polar.organizations.update({ id: org.id, organizationUpdate: { email: null } })).email).toBeNull();
    const s = slug();
    const founder = (await signedInUser()).browser.polar();
    expect(await issue(founder.organizations.create({ name: "Long Mail", slug: s, email: `${"s".repeat(65)}@acme.example` }))).toEqual([
      ["body.email", "value_error"],
    ]);
  });

  it("a created organization is reachable with a token minted for it", async () => {
    const created = await (await signedInUser()).browser.polar().organizations.create({ name: "Second Org", slug: slug() });
    const own = await mintOrganizationToken(api.knex, created.id);
    expect((await api.client(own).organizations.get({ id: created.id })).name).toBe("Second Org");
  });

  it("is created only by a user: an organization access token gets 403, no credentials 401", async () => {
    const { token } = await orgWithToken(api.knex);
    const s = slug();
    // The client declares no 403 for this call: it reaches it as a generic error with our body.
    const denied = await rejects(api.client(token).organizations.create({ name: "Unbounded", slug: s }), SDKError);
    expect(denied.statusCode).toBe(403);
    expect(JSON.parse(denied.body).error).toBe("NotPermitted");
    expect(await api.knex("organizations").where({ slug: s }).first()).toBeUndefined();
    const anonymous = await fetch(`${api.url}/v1/organizations/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Nobody's", slug: s }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("checks scopes and tokens", async () => {
    const { org } = await orgWithToken(api.knex);
    const readOnly = await mintOrganizationToken(api.knex, org.id, { scopes: ["organizations:read"] });
    const ro = api.client(readOnly);
    expect((await ro.organizations.get({ id: org.id })).id).toBe(org.id);
    const denied = await rejects(ro.organizations.update({ id: org.id, organizationUpdate: { name: "Nope nope" } }), NotPermitted);
    expect(denied.data$.error).toBe("NotPermitted");
    const expired = await mintOrganizationToken(api.knex, org.id, { expiresAt: new Date(Date.now() - 1000) });
    expect((await rejects(api.client(expired).organizations.get({ id: org.id }), SDKError)).statusCode).toBe(401);
  });
});
