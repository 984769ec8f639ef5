// An organization's tax settings, a Borealis extension on GET/PATCH
// /v1/organizations/{id}: the default (nothing collected), a change of each field, and a 422
// naming the field for each wrong value. Settings are read and written with plain JSON: the
// official client does not know the field, and its own updates leave them as they are.
import { afterEach, describe, expect, it } from "vitest";
import { setStripeTaxConfig } from "../../server/tax/providers.js";
import { orgWithClient, outboxTypes, plainJson, useTestApi } from "../harness/index.js";

const api = useTestApi();

const json = (token: string, method: string, path: string, body?: unknown) => plainJson(api.url, token)(method, path, body);

const FR_OSS = {
  provider: "builtin",
  origin_country: "FR",
  prices_include_tax: false,
  registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }, { country: "GB" }, { country: "US", state: "CA" }],
};

describe("organization tax settings", () => {
  it("reads as none by default, and takes the issue's shape", async () => {
    const { org, token, polar } = await orgWithClient(api);
    const before = await json(token, "GET", `/v1/organizations/${org.id}`);
    expect(before.body.tax_settings).toEqual({ provider: "none", origin_country: null, prices_include_tax: false, registrations: [] });

    const patched = await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings: FR_OSS });
    expect(patched.status).toBe(200);
    expect(patched.body.tax_settings).toEqual({
      provider: "builtin",
      origin_country: "FR",
      prices_include_tax: false,
      registrations: [{ country: "FR" }, { country: "EU", scheme: "oss" }, { country: "GB" }, { country: "US", state: "CA" }],
    });
    expect(await outboxTypes(api.knex, org.id)).toEqual(["organization.updated"]);

    // A field given alone replaces only itself; codes are taken in any case.
    const partial = await json(token, "PATCH", `/v1/organizations/${org.id}`, {
      tax_settings: { prices_include_tax: true, registrations: [{ country: "de" }, { country: "ca", state: "qc" }] },
    });
    expect(partial.body.tax_settings).toEqual({
      provider: "builtin",
      origin_country: "FR",
      prices_include_tax: true,
      registrations: [{ country: "DE" }, { country: "CA", state: "QC" }],
    });

    // The official client's update, which does not know the field, leaves it as it is.
    const renamed = await polar.organizations.update({ id: org.id, organizationUpdate: { name: "Renamed for tax" } });
    expect(renamed.name).toBe("Renamed for tax");
    expect((await json(token, "GET", `/v1/organizations/${org.id}`)).body.tax_settings).toEqual(partial.body.tax_settings);
    await expect(polar.organizations.get({ id: org.id })).resolves.toMatchObject({ id: org.id });

    const off = await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings: { provider: "none", origin_country: null } });
    expect(off.body.tax_settings).toMatchObject({ provider: "none", origin_country: null });
  });

  it("refuses each wrong value with a 422 naming its field, and keeps what was stored", async () => {
    const { org, token } = await orgWithClient(api);
    await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings: FR_OSS });
    const cases: [unknown, string, string][] = [
      [{ origin_country: "XX" }, "body.tax_settings.origin_country", "enum"],
      [{ origin_country: "EU" }, "body.tax_settings.origin_country", "enum"],
      [{ registrations: [{ country: "ZZ" }] }, "body.tax_settings.registrations.0.country", "enum"],
      [{ registrations: [{ country: "FR" }, { country: "EU" }] }, "body.tax_settings.registrations.1.scheme", "value_error"],
      [{ registrations: [{ country: "FR", scheme: "oss" }] }, "body.tax_settings.registrations.0.scheme", "value_error"],
      [{ registrations: [{ country: "DE", state: "BY" }] }, "body.tax_settings.registrations.0.state", "value_error"],
      [{ registrations: [{ country: "EU", scheme: "oss", state: "BY" }] }, "body.tax_settings.registrations.0.state", "value_error"],
      [{ registrations: [{ country: "US", state: "ZZ" }] }, "body.tax_settings.registrations.0.state", "value_error"],
      [{ registrations: [{ country: "CA", state: "XX" }] }, "body.tax_settings.registrations.0.state", "value_error"],
      [{ registrations: [{ country: "GB" }, { country: "gb" }] }, "body.tax_settings.registrations.1", "value_error"],
      // This server has no STRIPE_SECRET_KEY.
      [{ provider: "stripe" }, "body.tax_settings.provider", "value_error"],
      [{ origin_country: null }, "body.tax_settings.origin_country", "missing"],
    ];
    for (const [tax_settings, loc, type] of cases) {
      const res = await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings });
      expect(res.status, JSON.stringify(tax_settings)).toBe(422);
      expect(
        res.body.detail?.map((d) => [d.loc.join("."), d.type]),
        JSON.stringify(tax_settings),
      ).toEqual([[loc, type]]);
    }
    // What the contract refuses: an unknown provider or scheme.
    for (const tax_settings of [
      { provider: "avalara" },
      { registrations: [{ country: "EU", scheme: "ioss" }] },
      { prices_include_tax: "yes" },
    ]) {
      expect((await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings })).status).toBe(422);
    }
    expect((await json(token, "GET", `/v1/organizations/${org.id}`)).body.tax_settings).toEqual(FR_OSS);
  });
});

describe("organization tax settings with Stripe Tax configured", () => {
  afterEach(() => setStripeTaxConfig(null));

  it("takes the provider stripe once STRIPE_SECRET_KEY is set, and still needs the origin country", async () => {
    setStripeTaxConfig({ secretKey: "sk_test_borealis" });
    const { org, token } = await orgWithClient(api);
    const res = await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings: { ...FR_OSS, provider: "stripe" } });
    expect(res.status).toBe(200);
    expect(res.body.tax_settings).toEqual({ ...FR_OSS, provider: "stripe" });
    const missing = await json(token, "PATCH", `/v1/organizations/${org.id}`, { tax_settings: { origin_country: null } });
    expect(missing.body.detail?.map((d) => [d.loc.join("."), d.type])).toEqual([["body.tax_settings.origin_country", "missing"]]);
  });
});
