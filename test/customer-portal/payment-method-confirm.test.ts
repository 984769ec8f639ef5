// Confirming a saved card that needed 3-D Secure, through 0.49.0: add answers requires_action
// with the setup's secret; confirm saves the card (as the default when asked), once; another
// customer's, an unknown setup and a customer with no processor account are refused.
import { describe, expect, it, beforeAll } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { CustomerNotReady } from "polar-sdk-049/models/errors/customernotready.js";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { SDKError } from "polar-sdk-049/models/errors/sdkerror.js";
import { createCustomer, createCustomerSessionToken, orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("customer portal: confirm a payment method", () => {
  let portal: Polar049;
  let orgId: string;

  beforeAll(async () => {
    orgId = (await orgWithToken(api.knex)).org.id;
    portal = new Polar049({ serverURL: api.url });
  });

  async function session(organizationId = orgId) {
    const customer = await createCustomer(api.knex, organizationId);
    return { customer, security: { customerSession: await createCustomerSessionToken(api.knex, customer.id) } };
  }

  /** A 3-D Secure card added: the setup's id, the client secret's prefix. */
  async function pendingSetup(security: { customerSession: string }): Promise<string> {
    const added = await portal.customerPortal.customers.addPaymentMethod(security, {
      confirmationTokenId: "tok_sandbox_requires_action",
      setDefault: false,
      returnUrl: "https://example.com/back",
    });
    if (added.status !== "requires_action") throw new Error(`expected requires_action, got ${added.status}`);
    expect(added.clientSecret).toMatch(/^seti_sandbox_\w+_secret$/);
    return added.clientSecret.replace(/_secret$/, "");
  }

  it("saves the authenticated card, as the default when asked, once", async () => {
    const { customer, security } = await session();
    await portal.customerPortal.customers.addPaymentMethod(security, {
      confirmationTokenId: "tok_sandbox_success",
      setDefault: true,
      returnUrl: "https://example.com/back",
    });
    const setupIntentId = await pendingSetup(security);
    const confirmed = await portal.customerPortal.customers.confirmPaymentMethod(security, { setupIntentId, setDefault: true });
    if (confirmed.status !== "succeeded") throw new Error(`expected succeeded, got ${confirmed.status}`);
    expect(confirmed.paymentMethod).toMatchObject({
      customerId: customer.id,
      type: "card",
      methodMetadata: { brand: "visa", last4: "3155" },
    });
    const again = await portal.customerPortal.customers.confirmPaymentMethod(security, { setupIntentId, setDefault: true });
    expect(again.status === "succeeded" && again.paymentMethod.id).toBe(confirmed.paymentMethod.id);
    const rows = await api.knex("payment_methods").where({ customer_id: customer.id }).whereNull("deleted_at").orderBy("created_at");
    expect(rows.map((r) => [r.method_metadata.last4, r.is_default])).toEqual([
      ["4242", false],
      ["3155", true],
    ]);
  });

  it("answers 422 for an unknown setup or another customer's", async () => {
    const mine = await session();
    const theirs = await session();
    const theirSetup = await pendingSetup(theirs.security);
    await pendingSetup(mine.security);
    for (const setupIntentId of [theirSetup, "seti_sandbox_nope", ""]) {
      const err = await rejects(
        portal.customerPortal.customers.confirmPaymentMethod(mine.security, { setupIntentId, setDefault: false }),
        HTTPValidationError,
      );
      expect(err.detail?.[0]?.loc).toEqual(["body", "setup_intent_id"]);
    }
    expect(await api.knex("payment_methods").where({ customer_id: mine.customer.id })).toEqual([]);
  });

  it("answers 400 CustomerNotReady before the customer has added any payment method", async () => {
    const { security } = await session();
    const err = await rejects(
      portal.customerPortal.customers.confirmPaymentMethod(security, { setupIntentId: "seti_sandbox_x", setDefault: false }),
      CustomerNotReady,
    );
    expect(err.statusCode).toBe(400);
  });

  it("answers 401 without a session and 403 where saved payment methods are switched off", async () => {
    const body = { setupIntentId: "seti_sandbox_x", setDefault: false };
    const noSession = { customerSession: "polar_cst_nope" };
    expect((await rejects(portal.customerPortal.customers.confirmPaymentMethod(noSession, body), SDKError)).statusCode).toBe(401);
    const off = await orgWithToken(api.knex);
    await api
      .knex("organizations")
      .where({ id: off.org.id })
      .update({ customer_portal_settings: { payment_methods: false } });
    const { security } = await session(off.org.id);
    expect((await rejects(portal.customerPortal.customers.confirmPaymentMethod(security, body), SDKError)).statusCode).toBe(403);
  });
});
