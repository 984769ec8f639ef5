// A checkout of a seat-based product through the 0.49.0 client: seats on create and update (the
// merchant's and the buyer's), the amount priced by the tiers, the tiers' bounds as 422s, seats
// refused on another price, and the subscription or order the confirm makes carrying the seats.
import { describe, expect, it } from "vitest";
import type { Polar as Polar049 } from "polar-sdk-049";
import { HTTPValidationError } from "polar-sdk-049/models/errors/httpvalidationerror.js";
import { orgWithToken, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();

const TIERS = [
  { minSeats: 2, maxSeats: 5, pricePerSeat: 1000 },
  { minSeats: 6, maxSeats: 20, pricePerSeat: 800 },
];

async function shop(recurring: boolean): Promise<{ polar: Polar049; productId: string }> {
  const { org, token } = await orgWithToken(api.knex);
  const polar = api.client049(token);
  await polar.organizations.update({ id: org.id, organizationUpdate: { featureSettings: { seatBasedPricingEnabled: true } } });
  const product = await polar.products.create({
    name: "Team",
    recurringInterval: recurring ? "month" : null,
    prices: [{ amountType: "seat_based", priceCurrency: "usd", seatTiers: { seatTierType: "graduated", tiers: TIERS } }],
  });
  return { polar, productId: product.id };
}

describe("seat-based checkouts", () => {
  it("prices the seats, follows their changes, and starts a subscription with them", async () => {
    const { polar, productId } = await shop(true);
    const fresh = await polar.checkouts.create({ products: [productId] });
    expect(fresh).toMatchObject({ seats: 2, minSeats: 2, maxSeats: 20, amount: 2000 });
    const seven = await polar.checkouts.create({ products: [productId], seats: 7 });
    expect(seven).toMatchObject({ seats: 7, amount: 5 * 1000 + 2 * 800, totalAmount: 6600 });
    const three = await polar.checkouts.update({ id: seven.id, checkoutUpdate: { seats: 3 } });
    expect(three).toMatchObject({ seats: 3, amount: 3000 });
    const anon = api.client049("");
    const buyer = await anon.checkouts.clientUpdate({
      clientSecret: seven.clientSecret,
      checkoutUpdatePublic: {
        seats: 6,
        customerEmail: "team@example.com",
        customerName: "Team",
        customerBillingAddress: { country: "US", state: "US-NY", postalCode: "10001" },
      },
    });
    expect(buyer).toMatchObject({ seats: 6, amount: 5800 });
    // Other changes keep the seats.
    expect(
      await anon.checkouts.clientUpdate({ clientSecret: seven.clientSecret, checkoutUpdatePublic: { customerName: "Team B" } }),
    ).toMatchObject({
      seats: 6,
      amount: 5800,
    });

    for (const seats of [1, 21]) {
      const err = await rejects(polar.checkouts.update({ id: seven.id, checkoutUpdate: { seats } }), HTTPValidationError);
      expect(err.detail?.[0]?.loc).toEqual(["body", "seats"]);
    }
    const confirmed = await anon.checkouts.clientConfirm({
      clientSecret: seven.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(confirmed.status).toBe("confirmed");
    const sub = await api.knex("subscriptions").where({ checkout_id: seven.id }).first("seats", "amount");
    expect(sub).toEqual({ seats: 6, amount: 5800 });
    const order = await api.knex("orders").where({ checkout_id: seven.id }).first("seats", "subtotal_amount");
    expect(order).toEqual({ seats: null, subtotal_amount: 5800 });
  });

  it("puts a one-time purchase's seats on its order, and refuses seats on another price", async () => {
    const { polar, productId } = await shop(false);
    const checkout = await polar.checkouts.create({ products: [productId], seats: 4, customerEmail: "one@example.com" });
    expect(checkout).toMatchObject({ seats: 4, amount: 4000 });
    const anon = api.client049("");
    await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerName: "One", customerBillingAddress: { country: "US", state: "US-NY", postalCode: "10001" } },
    });
    await anon.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: "tok_sandbox_success" },
    });
    expect(await api.knex("orders").where({ checkout_id: checkout.id }).first("seats", "subtotal_amount")).toEqual({
      seats: 4,
      subtotal_amount: 4000,
    });

    const fixed = await polar.products.create({ name: "Solo", prices: [{ amountType: "fixed", priceCurrency: "usd", priceAmount: 1000 }] });
    const plain = await polar.checkouts.create({ products: [fixed.id] });
    expect(plain).toMatchObject({ seats: null, minSeats: null, maxSeats: null, amount: 1000 });
    const err = await rejects(polar.checkouts.update({ id: plain.id, checkoutUpdate: { seats: 3 } }), HTTPValidationError);
    expect(err.detail?.[0]?.loc).toEqual(["body", "seats"]);
  });
});
