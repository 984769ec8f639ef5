// A business buyer gives the full billing address (Polar's is_billing_address_required) and a
// business name, which the order and the customer keep as their billing name; a confirm missing
// either is a 422 naming the field. A withdrawn country code (DD, FX, UK, SU, YU, CS) is refused.
import { beforeAll, describe, expect, it } from "vitest";
import { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { createCheckoutProduct, orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

describe("a business buyer", () => {
  let polar: Polar049;
  let anon: Polar049;
  let productId: string;

  beforeAll(async () => {
    const { org, token } = await orgWithToken(api.knex);
    polar = api.client049(token);
    anon = new Polar049({ serverURL: api.url });
    productId = (await createCheckoutProduct(api.knex, org.id)).product.id;
  });

  const locOf = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HTTPValidationError);
    return (err as HTTPValidationError).detail?.map((d) => d.loc);
  };

  it("is asked for the full billing address, and refused without it or a business name", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    expect(checkout.billingAddressFields).toMatchObject({
      country: "required",
      line1: "disabled",
      city: "disabled",
      postalCode: "disabled",
    });
    const update = (checkoutUpdatePublic: Parameters<Polar049["checkouts"]["clientUpdate"]>[0]["checkoutUpdatePublic"]) =>
      anon.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic });
    const business = await update({
      customerEmail: "einkauf@example.com",
      customerBillingAddress: { country: "DE" },
      isBusinessCustomer: true,
    });
    expect(business.billingAddressFields).toEqual({
      country: "required",
      state: "optional",
      line1: "required",
      line2: "optional",
      city: "required",
      postalCode: "required",
    });
    const confirm = () =>
      anon.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
      });
    expect(await locOf(confirm())).toEqual([["body", "customer_billing_address", "line1"]]);
    await update({ customerBillingAddress: { country: "DE", line1: "Unter den Linden 1", city: "Berlin" } });
    expect(await locOf(confirm())).toEqual([["body", "customer_billing_address", "postal_code"]]);
    await update({ customerBillingAddress: { country: "DE", line1: "Unter den Linden 1", city: "Berlin", postalCode: "10117" } });
    expect(await locOf(confirm())).toEqual([["body", "customer_billing_name"]]);
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe("open");

    // Back to a consumer: the country alone again.
    const consumer = await update({ isBusinessCustomer: false });
    expect(consumer.billingAddressFields).toMatchObject({ line1: "disabled", city: "disabled", postalCode: "disabled" });
  });

  it("pays with the business name as the billing name of the order and the customer", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: {
        customerEmail: "buyer@acme.example",
        customerName: "Grete Buyer",
        isBusinessCustomer: true,
        customerBillingName: "Acme GmbH",
        customerBillingAddress: { country: "DE", line1: "Unter den Linden 1", city: "Berlin", postalCode: "10117" },
      },
    });
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed");
    const [order] = (await polar.orders.list({ productId })).result.items.filter((o) => o.checkoutId === checkout.id);
    expect(order.billingName).toBe("Acme GmbH");
    expect(order.billingAddress).toMatchObject({ country: "DE", line1: "Unter den Linden 1", city: "Berlin", postalCode: "10117" });
    const customer = await polar.customers.get({ id: order.customerId });
    expect(customer).toMatchObject({ name: "Grete Buyer", billingName: "Acme GmbH" });
  });

  it("cannot give a withdrawn country code", async () => {
    const checkout = await polar.checkouts.create({ products: [productId] });
    for (const country of ["DD", "FX", "UK", "SU", "YU", "CS"]) {
      // Raw: the client's types take assigned codes only.
      const res = await fetch(`${api.url}/v1/checkouts/client/${checkout.clientSecret}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customer_billing_address: { country } }),
      });
      expect(res.status, country).toBe(422);
      const body = (await res.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail[0].loc).toEqual(["body", "customer_billing_address", "country"]);
    }
  });
});
