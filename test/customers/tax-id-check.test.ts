// A customer's tax id confirmed online: EU VAT ids with VIES, UK VAT numbers with HMRC (local
// stand-ins, test/tax/registry-stand-ins.ts, via VIES_URL / HMRC_URL). The check runs in a worker
// after the commit that set the tax id; an unavailable registry never blocks a purchase and is
// asked again by the backstop sweep. Read on the wire as `tax_id_check` (a Borealis addition).
import { Polar } from "@polar-sh/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runTaxIdCheck } from "../../server/customers/tax-id-check.js";
import { setWorkflowsDoor, temporalDoor } from "../../server/workflows-door.js";
import { sweepTaxIdChecks } from "../../workflows/backstop.js";
import { createTaxIdCheckActivities } from "../../workflows/activities/tax-id-check.js";
import { taxIdCheckWorkflowId } from "../../workflows/shared/ids.js";
import { activityDeps, createCustomerSessionToken, orgWithClient, plainJson, useTestApi, useTestWorker } from "../harness/index.js";
import { HMRC_CLIENT, startRegistryStandIns, type RegistryStandIns } from "../tax/registry-stand-ins.js";
import { sleep } from "../../server/kit/time.js";

const api = useTestApi();
const temporal = useTestWorker("tax-id-check", {
  activities: () => createTaxIdCheckActivities(activityDeps(api.knex)),
  install: (client, taskQueue) => {
    setWorkflowsDoor({ startTaxIdChecks: temporalDoor(client, taskQueue).startTaxIdChecks });
    return () => setWorkflowsDoor(null);
  },
});

const SETTINGS = [
  "VIES_URL",
  "HMRC_URL",
  "HMRC_CLIENT_ID",
  "HMRC_CLIENT_SECRET",
  "TAX_ID_CHECK_TIMEOUT_MS",
  "TAX_ID_CHECK_RETRY_MS",
] as const;
const saved = new Map<string, string | undefined>();
let registries: RegistryStandIns;

beforeAll(async () => {
  registries = await startRegistryStandIns();
  registries.vies.set("FR40303265045", { name: "SA ODIGEO FRANCE", address: "1 RUE DE LA PAIX\n75002 PARIS" });
  registries.hmrc.set("980780684", {
    name: "BRITISH TRADERS LTD",
    address: { line1: "1 BRAHAM STREET", postcode: "E1 8EE", countryCode: "GB" },
  });
  const values: Record<(typeof SETTINGS)[number], string> = {
    VIES_URL: registries.viesUrl,
    HMRC_URL: registries.hmrcUrl,
    HMRC_CLIENT_ID: HMRC_CLIENT.id,
    HMRC_CLIENT_SECRET: HMRC_CLIENT.secret,
    TAX_ID_CHECK_TIMEOUT_MS: "400",
    // Due again at once: the sweep below decides when it runs.
    TAX_ID_CHECK_RETRY_MS: "1",
  };
  for (const name of SETTINGS) {
    saved.set(name, process.env[name]);
    process.env[name] = values[name];
  }
});

afterAll(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await registries.close();
});

beforeEach(() => {
  registries.mode.vies = "up";
  registries.mode.hmrc = "up";
});

type Check = { status: string; service: string | null; name: string | null; address: string | null; checked_at: string | null } | null;

/** The customer's tax_id_check on the wire, once it is no longer `unchecked` (or `until` says so). */
async function checkOf(
  call: ReturnType<typeof plainJson>,
  customerId: string,
  until = (c: Check) => c?.status !== "unchecked",
): Promise<Check> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await call("GET", `/v1/customers/${customerId}`);
    expect(res.status).toBe(200);
    const check = res.body.tax_id_check as Check;
    if (until(check) || Date.now() > deadline) return check;
    await sleep(100);
  }
}

async function shop() {
  const { org, token, polar } = await orgWithClient(api);
  return { org, token, polar, call: plainJson(api.url, token) };
}

describe("tax id checks with VIES and HMRC", () => {
  it("confirms an EU VAT id with VIES and records the registry's name and address", async () => {
    const { call } = await shop();
    const made = await call("POST", "/v1/customers/", {
      email: "fr@example.com",
      billing_address: { country: "FR" },
      tax_id: ["FR40303265045", "eu_vat"],
    });
    expect(made.status).toBe(201);
    expect(made.body.tax_id_check).toEqual({ status: "unchecked", service: null, name: null, address: null, checked_at: null });
    expect(await checkOf(call, String(made.body.id))).toEqual({
      status: "valid",
      service: "vies",
      name: "SA ODIGEO FRANCE",
      address: "1 RUE DE LA PAIX\n75002 PARIS",
      checked_at: "2026-11-27T10:00:00.000Z",
    });
    expect(registries.requests.filter((r) => r.service === "vies").at(-1)?.body).toEqual({ countryCode: "FR", vatNumber: "40303265045" });
  });

  it("records an EU VAT id VIES does not know as invalid", async () => {
    const { call } = await shop();
    const made = await call("POST", "/v1/customers/", {
      email: "de@example.com",
      billing_address: { country: "DE" },
      tax_id: ["DE136695976", "eu_vat"],
    });
    expect(await checkOf(call, String(made.body.id))).toMatchObject({ status: "invalid", service: "vies", name: null, address: null });
  });

  it("confirms a UK VAT number with HMRC (its OAuth token, version 2) and refuses an unknown one", async () => {
    const { call } = await shop();
    const made = await call("POST", "/v1/customers/", {
      email: "gb@example.com",
      billing_address: { country: "GB" },
      tax_id: ["GB980780684", "gb_vat"],
    });
    expect(await checkOf(call, String(made.body.id))).toMatchObject({
      status: "valid",
      service: "hmrc",
      name: "BRITISH TRADERS LTD",
      address: "1 BRAHAM STREET, E1 8EE, GB",
      checked_at: "2026-11-27T10:00:00.000Z",
    });
    expect(registries.requests.filter((r) => r.service === "hmrc").at(-1)).toMatchObject({
      path: "/organisations/vat/check-vat-number/lookup/980780684",
      accept: "application/vnd.hmrc.2.0+json",
      authorization: `Bearer ${HMRC_CLIENT.token}`,
    });
    // a change of tax id is checked again, from scratch
    const changed = await call("PATCH", `/v1/customers/${made.body.id}`, { tax_id: ["GB245719348", "gb_vat"] });
    expect(changed.body.tax_id_check).toMatchObject({ status: "unchecked", name: null });
    expect(await checkOf(call, String(made.body.id))).toMatchObject({ status: "invalid", service: "hmrc", name: null });
    // one token for both lookups, asked with the client's credentials and the scope read:vat
    const tokens = registries.requests.filter((r) => r.path === "/oauth/token");
    expect(tokens).toEqual([
      {
        service: "hmrc",
        path: "/oauth/token",
        body: { grant_type: "client_credentials", client_id: HMRC_CLIENT.id, client_secret: HMRC_CLIENT.secret, scope: "read:vat" },
      },
    ]);
  });

  it("checks a tax id the customer sets in the portal, and clears the check with the tax id", async () => {
    const { call } = await shop();
    const made = await call("POST", "/v1/customers/", { email: "portal@example.com", billing_address: { country: "FR" } });
    expect(made.body.tax_id_check).toBeNull();
    const session = await createCustomerSessionToken(api.knex, String(made.body.id));
    const portal = plainJson(api.url, session);
    expect((await portal("PATCH", "/v1/customer-portal/customers/me", { tax_id: "FR40303265045" })).status).toBe(200);
    expect(await checkOf(call, String(made.body.id))).toMatchObject({ status: "valid", service: "vies" });
    expect((await call("PATCH", `/v1/customers/${made.body.id}`, { tax_id: null })).body.tax_id_check).toBeNull();
  });

  it("never blocks a purchase: VIES down, the order is paid with the reverse charge, the check unavailable, then confirmed when VIES is back", async () => {
    const { org, polar, call } = await shop();
    const seller = {
      provider: "builtin",
      origin_country: "DE",
      prices_include_tax: false,
      registrations: [{ country: "DE" }, { country: "EU", scheme: "oss" }],
    };
    expect((await call("PATCH", `/v1/organizations/${org.id}`, { tax_settings: seller })).status).toBe(200);
    const product = await call("POST", "/v1/products/", {
      name: "App",
      prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "eur" }],
    });
    const anon = new Polar({ serverURL: api.url });
    const checkout = await polar.checkouts.create({ products: [String(product.body.id)] });

    registries.mode.vies = "down";
    await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: "acme@example.com",
        customerName: "Buyer",
        customerBillingAddress: { country: "FR", line1: "1 rue", city: "Paris", postalCode: "75001" },
        isBusinessCustomer: true,
        customerBillingName: "Acme SAS",
        customerTaxId: "FR40303265045",
      },
    });
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed");
    const done = await polar.checkouts.get({ id: checkout.id });
    expect(done.status).toBe("succeeded");
    const [order] = (await polar.orders.list({ productId: String(product.body.id) })).result.items;
    expect([order.netAmount, order.taxAmount, order.totalAmount, order.paid]).toEqual([1000, 0, 1000, true]);
    expect((await call("GET", `/v1/orders/${order.id}`)).body.taxability_reason).toBe("reverse_charge");

    const customerId = order.customerId;
    expect(await checkOf(call, customerId)).toMatchObject({ status: "unavailable", service: "vies", name: null });
    const stored = await api.knex("customers").where({ id: customerId }).first();
    expect(stored.tax_id_check_due_at).not.toBeNull();

    // the sweep asks again once VIES is back (and the first check's run is over: a running one is joined)
    await temporal.client.workflow.getHandle(taxIdCheckWorkflowId(customerId)).result();
    registries.mode.vies = "up";
    await sweepTaxIdChecks(api.knex, temporalDoor(temporal.client, temporal.taskQueue), 0);
    expect(await checkOf(call, customerId, (c) => c?.status !== "unavailable")).toMatchObject({
      status: "valid",
      service: "vies",
      name: "SA ODIGEO FRANCE",
    });
    expect((await api.knex("customers").where({ id: customerId }).first()).tax_id_check_due_at).toBeNull();
  });

  it("counts a registry that does not answer in time as unavailable", async () => {
    const { call } = await shop();
    registries.mode.hmrc = "hang";
    const made = await call("POST", "/v1/customers/", {
      email: "slow@example.com",
      billing_address: { country: "GB" },
      tax_id: ["GB980780684", "gb_vat"],
    });
    expect(await checkOf(call, String(made.body.id))).toMatchObject({ status: "unavailable", service: "hmrc" });
  });

  it("is idempotent, and drops an answer about a tax id changed while the registry was asked", async () => {
    const { org } = await shop();
    // written directly, so that no workflow runs the check: this test runs it by hand
    const [row] = await api
      .knex("customers")
      .insert({ organization_id: org.id, email: "race@example.com", tax_id: JSON.stringify(["FR40303265045", "eu_vat"]) })
      .returning("*");
    expect(row).toMatchObject({ tax_id_check_status: "unchecked" });
    expect(row.tax_id_check_due_at).not.toBeNull();
    const changeMeanwhile = async () => {
      await api
        .knex("customers")
        .where({ id: row.id })
        .update({ tax_id: JSON.stringify(["DE136695976", "eu_vat"]) });
      return { status: "valid" as const, service: "vies" as const, name: "SA ODIGEO FRANCE", address: null, checkedAt: new Date() };
    };
    expect(await runTaxIdCheck(api.knex, row.id, changeMeanwhile)).toBe("unchecked");
    const after = await api.knex("customers").where({ id: row.id }).first();
    expect(after).toMatchObject({ tax_id_check_status: "unchecked", tax_id_check_name: null });
    expect(after.tax_id_check_due_at).not.toBeNull();

    expect(await runTaxIdCheck(api.knex, row.id)).toBe("invalid");
    const asked = registries.requests.length;
    // nothing due any more: a second run asks nobody
    expect(await runTaxIdCheck(api.knex, row.id)).toBe("invalid");
    expect(registries.requests.length).toBe(asked);
  });
});
