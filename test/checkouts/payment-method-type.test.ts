// A checkout's `payment_method_type` (the 1.x client's Checkout): what the buyer chose in the form,
// sent with the client update or the confirm, null until then, blank for none, and null whenever
// the checkout needs no payment form; UPI asks for the full billing address. The merchant does not
// set it. And its `units`, `min_units`, `max_units`: no price is unit-based, so null.
import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-04";
import { orgWithToken, useTestApi } from "../harness/index.js";

const api = useTestApi();

async function setup() {
  const { token } = await orgWithToken(api.knex);
  const polar = createPolar({ accessToken: token, baseUrl: api.url });
  const paid = await polar.products.create({ name: "Paid", prices: [{ amount_type: "fixed", price_amount: 1000, price_currency: "usd" }] });
  const free = await polar.products.create({ name: "Free", prices: [{ amount_type: "fixed", price_amount: 0, price_currency: "usd" }] });
  return { polar, paid, free };
}

describe("a checkout's payment method type", () => {
  it("is the buyer's choice, asks for the full address for UPI, and is cleared by a blank", async () => {
    const { polar, paid } = await setup();
    const checkout = await polar.checkouts.create({ products: [paid.id] });
    expect(checkout).toMatchObject({ payment_method_type: null, units: null, min_units: null, max_units: null });
    const card = await polar.checkouts.clientUpdate(checkout.client_secret, {
      payment_method_type: "card",
      customer_billing_address: { country: "IN" },
    });
    expect(card.payment_method_type).toBe("card");
    expect(card.billing_address_fields).toMatchObject({
      country: "required",
      line1: "disabled",
      city: "disabled",
      postal_code: "disabled",
    });
    const upi = await polar.checkouts.clientUpdate(checkout.client_secret, { payment_method_type: "upi" });
    expect(upi.billing_address_fields).toMatchObject({ country: "required", line1: "required", city: "required", postal_code: "required" });
    expect((await polar.checkouts.get(checkout.id)).payment_method_type).toBe("upi");
    expect((await polar.checkouts.clientUpdate(checkout.client_secret, { payment_method_type: "" })).payment_method_type).toBeNull();
    // Sent with the confirm.
    await polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_sandbox_success",
      customer_email: "upi@example.com",
      payment_method_type: "card",
      customer_billing_address: { country: "IN" },
    });
    expect((await polar.checkouts.get(checkout.id)).payment_method_type).toBe("card");
  });

  it("is null when the checkout needs no payment form, and not the merchant's to set", async () => {
    const { polar, free, paid } = await setup();
    const checkout = await polar.checkouts.create({ products: [free.id] });
    expect((await polar.checkouts.clientUpdate(checkout.client_secret, { payment_method_type: "card" })).payment_method_type).toBeNull();
    const other = await polar.checkouts.create({ products: [paid.id] });
    // @ts-expect-error the merchant's update has no payment_method_type: what it sends is not taken
    expect((await polar.checkouts.update(other.id, { payment_method_type: "card" })).payment_method_type).toBeNull();
  });
});
