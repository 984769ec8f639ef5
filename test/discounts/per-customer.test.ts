// A discount's `max_redemptions_per_customer`: set at create and update (at least 1, null for no
// limit), shown on every discount, and held for each buyer (their customer, or their email as
// typed or as their customer's): applying its code is refused once they reached it, and so is a
// confirm (with a code, or with the discount the merchant set), while other buyers redeem it.
import { describe, expect, it } from "vitest";
import { PolarClientError } from "polar-sdk-1";
import { createPolar, type Polar } from "polar-sdk-1/2026-04";
import { createCustomer, orgWithToken, uniqueEmail, useTestApi } from "../harness/index.js";

const api = useTestApi();
const pay = { confirmation_token_id: "tok_sandbox_success", customer_billing_address: { country: "FR" } } as const;

/** What a call refused with: its status and the first 422 issue's field and message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; loc?: unknown; msg?: unknown }> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof PolarClientError)) throw new Error(`not refused: ${String(err)}`);
  const detail = (err.error as { detail?: { loc: unknown; msg: unknown }[] }).detail?.[0];
  return { status: err.statusCode, loc: detail?.loc, msg: detail?.msg };
}

async function setup() {
  const { org, token } = await orgWithToken(api.knex);
  const polar = createPolar({ accessToken: token, baseUrl: api.url });
  const product = await polar.products.create({
    name: "Guide",
    prices: [{ amount_type: "fixed", price_amount: 2000, price_currency: "usd" }],
  });
  return { org, polar, product };
}

async function buy(polar: Polar, productId: string, who: { customer_id?: string; customer_email?: string }, code: string) {
  const checkout = await polar.checkouts.create({ products: [productId], ...who });
  await polar.checkouts.clientUpdate(checkout.client_secret, { discount_code: code });
  await polar.checkouts.clientConfirm(checkout.client_secret, pay);
  return polar.checkouts.get(checkout.id);
}

describe("a discount's max_redemptions_per_customer", () => {
  it("is set at create and update, at least 1 or null", async () => {
    const { polar } = await setup();
    const created = await polar.discounts.create({
      name: "Once each",
      type: "percentage",
      basis_points: 1000,
      duration: "once",
      max_redemptions_per_customer: 1,
    });
    expect(created.max_redemptions_per_customer).toBe(1);
    expect((await polar.discounts.update(created.id, { max_redemptions_per_customer: 3 })).max_redemptions_per_customer).toBe(3);
    expect((await polar.discounts.get(created.id)).max_redemptions_per_customer).toBe(3);
    expect((await polar.discounts.update(created.id, { max_redemptions_per_customer: null })).max_redemptions_per_customer).toBeNull();
    const plain = await polar.discounts.create({ name: "No limit", type: "fixed", amount: 100, currency: "usd", duration: "once" });
    expect(plain.max_redemptions_per_customer).toBeNull();
    expect(await refusal(polar.discounts.update(created.id, { max_redemptions_per_customer: 0 }))).toMatchObject({
      status: 422,
      loc: ["body", "max_redemptions_per_customer"],
    });
  });

  it("lets each buyer redeem it that many times, by customer or email", async () => {
    const { org, polar, product } = await setup();
    const code = `EACH${Date.now()}`;
    const discount = await polar.discounts.create({
      name: "Once each",
      code,
      type: "percentage",
      basis_points: 1000,
      duration: "once",
      max_redemptions_per_customer: 1,
    });
    const email = uniqueEmail("once");
    const first = await buy(polar, product.id, { customer_email: email }, code);
    expect(first.status).toBe("succeeded");
    expect(first.discount_id).toBe(discount.id);

    // The same email again: the code is refused when applied.
    const again = await polar.checkouts.create({ products: [product.id], customer_email: email.toUpperCase() });
    expect(await refusal(polar.checkouts.clientUpdate(again.client_secret, { discount_code: code }))).toMatchObject({
      status: 422,
      loc: ["body", "discount_code"],
      msg: "You have already redeemed this discount the maximum number of times allowed per customer.",
    });
    // The customer that checkout made, named by id, with the discount set by the merchant: the confirm is refused.
    const buyer = (await polar.customers.list({ email })).items[0];
    const locked = await polar.checkouts.create({ products: [product.id], customer_id: buyer.id, discount_id: discount.id });
    expect(await refusal(polar.checkouts.clientConfirm(locked.client_secret, pay))).toMatchObject({
      status: 422,
      loc: ["body", "discount_code"],
    });
    expect((await polar.checkouts.get(locked.id)).status).toBe("open");

    // Someone else redeems it; the first buyer may once more when the limit is raised.
    const other = await createCustomer(api.knex, org.id);
    expect((await buy(polar, product.id, { customer_id: other.id }, code)).status).toBe("succeeded");
    await polar.discounts.update(discount.id, { max_redemptions_per_customer: 2 });
    expect((await polar.checkouts.clientConfirm(locked.client_secret, pay)).status).toBe("confirmed");
    expect((await polar.checkouts.get(locked.id)).status).toBe("succeeded");
    expect((await polar.discounts.get(discount.id)).redemptions_count).toBe(3);
  });
});
