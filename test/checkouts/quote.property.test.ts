// Property: random interleavings of buyer updates and views (address, business checkbox, VAT id),
// merchant changes (prices, products, discounts) and confirms, some racing, for a seller that
// collects tax. Whatever the order, every payment equals the total_amount of its buyer's last
// view; a refused confirm leaves no payment, order or redemption; a checkout is paid at most once;
// each discount's redemptions are its orders.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { HTTPValidationError } from "@polar-sh/sdk/models/errors/httpvalidationerror.js";
import { NotOpenCheckout } from "@polar-sh/sdk/models/errors/notopencheckout.js";
import { ResourceNotFound } from "@polar-sh/sdk/models/errors/resourcenotfound.js";
import type { CheckoutPublic } from "@polar-sh/sdk/models/components/checkoutpublic.js";
import type { Address } from "@polar-sh/sdk/models/components/address.js";
import { findBySecret, markQuoteShown } from "../../server/checkouts/repository.js";
import { createCheckoutProduct, orgWithToken, plainJson, rejects, useTestApi } from "../harness/index.js";

const api = useTestApi();
const BUYERS = 3;

type Action =
  | { kind: "code"; buyer: number; code: 0 | 1 | null }
  | { kind: "product"; buyer: number; product: 0 | 1 }
  | { kind: "amount"; buyer: number; amount: number }
  | { kind: "view"; buyer: number }
  | { kind: "address"; buyer: number; address: Address }
  | { kind: "business"; buyer: number; business: boolean }
  | { kind: "taxId"; buyer: number; taxId: string | null }
  | { kind: "confirm"; buyers: number[]; address: Address | null; race: Address | null }
  | { kind: "reprice"; amount: number }
  | { kind: "taxSettings"; inclusive: boolean; oss: boolean }
  | { kind: "archive"; archived: boolean }
  | { kind: "exhaust"; code: 0 | 1 }
  | { kind: "deleteDiscount"; code: 0 | 1 }
  | { kind: "rediscount"; code: 0 | 1; amount: number };

const buyer = fc.integer({ min: 0, max: BUYERS - 1 });
const code = fc.constantFrom<0 | 1>(0, 1);
/** Where the seller collects (FR, the EU under OSS, GB, Canada and Quebec) and where it doesn't (US, BR); Canada with or without its province. */
const address: fc.Arbitrary<Address> = fc.oneof(
  fc.record({ country: fc.constantFrom("FR", "DE", "IT", "GB", "NO", "BR") }),
  fc.record({ country: fc.constant("US"), state: fc.constantFrom("NY", "CA"), postalCode: fc.constantFrom("10001", "94103") }),
  fc.record({ country: fc.constant("CA"), state: fc.constantFrom("QC", "ON") }),
  fc.record({ country: fc.constant("CA"), postalCode: fc.constantFrom("H2X 1Y4", "M5V 3L9") }),
  fc.constant({ country: "CA" }),
);
/** Valid VAT ids of DE, FR and GB, one failing its checksum, none. */
const taxId = fc.constantFrom("DE136695976", "FR40303265045", "GB980780684", "DE136695975", null);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("code" as const), buyer, code: fc.constantFrom<0 | 1 | null>(0, 1, null) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("product" as const), buyer, product: fc.constantFrom<0 | 1>(0, 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("amount" as const), buyer, amount: fc.integer({ min: 400, max: 6000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("view" as const), buyer }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("address" as const), buyer, address }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("business" as const), buyer, business: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("taxId" as const), buyer, taxId }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("confirm" as const),
      buyers: fc.uniqueArray(buyer, { minLength: 1, maxLength: BUYERS }),
      address: fc.option(address),
      // The first buyer's address changed again while their confirm is in flight.
      race: fc.option(address),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reprice" as const), amount: fc.integer({ min: 600, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("taxSettings" as const), inclusive: fc.boolean(), oss: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("archive" as const), archived: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("exhaust" as const), code }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deleteDiscount" as const), code }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rediscount" as const), code, amount: fc.integer({ min: 50, max: 400 }) }) },
);

/** Runs the call; a 422, a closed checkout or a deleted discount is an expected refusal (undefined), anything else fails the property. */
async function expected<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof HTTPValidationError || err instanceof NotOpenCheckout || err instanceof ResourceNotFound) return undefined;
    throw err;
  }
}

describe("checkout quote property", () => {
  it("every payment is the total the buyer last saw; refusals leave nothing behind", async () => {
    // Orders paid with tax over all runs: the property must see taxed totals charged, not only untaxed ones.
    let taxedOrders = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 14 }), fc.boolean(), async (actions, pricesIncludeTax) => {
        const { org, token } = await orgWithToken(api.knex);
        const setTax = async (inclusive: boolean, oss: boolean) => {
          const registrations = [
            { country: "FR" },
            ...(oss ? [{ country: "EU", scheme: "oss" }] : []),
            { country: "GB" },
            { country: "CA" },
            { country: "CA", state: "QC" },
          ];
          const settings = { provider: "builtin", origin_country: "FR", prices_include_tax: inclusive, registrations };
          expect((await plainJson(api.url, token)("PATCH", `/v1/organizations/${org.id}`, { tax_settings: settings })).status).toBe(200);
        };
        await setTax(pricesIncludeTax, true);
        const merchant = api.client(token);
        const anon = new Polar({ serverURL: api.url });
        const fixed = await merchant.products.create({
          name: "Fixed",
          recurringInterval: null,
          prices: [{ amountType: "fixed", priceAmount: 1020, priceCurrency: "usd" }],
        });
        const custom = (
          await createCheckoutProduct(api.knex, org.id, {
            name: "Custom",
            price: { amount_type: "custom", price_currency: "usd", minimum_amount: 500, maximum_amount: 5000, preset_amount: 1000 },
          })
        ).product;
        const products = [fixed.id, custom.id];
        const codes = [`A${randomUUID().slice(0, 8)}`, `B${randomUUID().slice(0, 8)}`];
        const discounts = [
          await merchant.discounts.create({
            name: "Fixed off",
            type: "fixed",
            duration: "once",
            amount: 100,
            currency: "usd",
            code: codes[0],
            maxRedemptions: 2,
          }),
          await merchant.discounts.create({
            name: "Tenth off",
            type: "percentage",
            duration: "once",
            basisPoints: 1000,
            code: codes[1],
            maxRedemptions: 1,
          }),
        ];
        const checkouts = await Promise.all(Array.from({ length: BUYERS }, () => merchant.checkouts.create({ products })));
        // The last view each buyer received (the create answer was the merchant's, so each buyer starts by looking).
        const lastSeen: number[] = [];
        for (const [i, c] of checkouts.entries())
          lastSeen[i] = (await anon.checkouts.clientGet({ clientSecret: c.clientSecret })).totalAmount;
        const paidAt = new Map<number, number>(); // buyer → the total they had last seen when their confirm succeeded
        const saw = (i: number, v: CheckoutPublic | undefined) => {
          if (v) lastSeen[i] = v.totalAmount;
        };
        const update = (i: number, body: Parameters<typeof anon.checkouts.clientUpdate>[0]["checkoutUpdatePublic"]) =>
          expected(anon.checkouts.clientUpdate({ clientSecret: checkouts[i].clientSecret, checkoutUpdatePublic: body }));

        for (const a of actions) {
          switch (a.kind) {
            case "code":
              saw(a.buyer, await update(a.buyer, { discountCode: a.code === null ? null : codes[a.code] }));
              break;
            case "product":
              saw(a.buyer, await update(a.buyer, { productId: products[a.product] }));
              break;
            case "amount":
              saw(a.buyer, await update(a.buyer, { amount: a.amount }));
              break;
            case "view":
              saw(a.buyer, await expected(anon.checkouts.clientGet({ clientSecret: checkouts[a.buyer].clientSecret })));
              break;
            case "address":
              saw(a.buyer, await update(a.buyer, { customerBillingAddress: a.address }));
              break;
            case "business":
              saw(
                a.buyer,
                await update(
                  a.buyer,
                  a.business ? { isBusinessCustomer: true, customerBillingName: "Acme" } : { isBusinessCustomer: false },
                ),
              );
              break;
            case "taxId":
              saw(a.buyer, await update(a.buyer, { customerTaxId: a.taxId }));
              break;
            case "confirm": {
              const seen = a.buyers.map((i) => lastSeen[i]);
              const racing = a.race ? update(a.buyers[0], { customerBillingAddress: a.race }) : Promise.resolve(undefined);
              const [raced, ...results] = await Promise.all([
                racing,
                ...a.buyers.map((i) =>
                  expected(
                    anon.checkouts.clientConfirm({
                      clientSecret: checkouts[i].clientSecret,
                      checkoutConfirmStripe: {
                        customerEmail: `buyer${i}@example.com`,
                        ...(a.address ? { customerBillingAddress: a.address } : {}),
                        confirmationTokenId: "tok_sandbox_success",
                      },
                    }),
                  ),
                ),
              ]);
              // An update answered went first (a confirmed checkout refuses it): the confirm after it charges what it showed.
              if (raced) seen[0] = raced.totalAmount;
              saw(a.buyers[0], raced);
              for (const [k, i] of a.buyers.entries()) {
                const paid = await api.knex("payments").where({ checkout_id: checkouts[i].id, status: "succeeded" });
                if (results[k]) {
                  expect(results[k]!.totalAmount).toBe(seen[k]);
                  paidAt.set(i, seen[k]);
                } else if (!paidAt.has(i)) {
                  // Refused while still open: nothing charged, ordered or redeemed for it.
                  expect(paid).toHaveLength(0);
                  expect(await api.knex("orders").where({ checkout_id: checkouts[i].id })).toHaveLength(0);
                }
              }
              break;
            }
            case "reprice":
              await expected(
                merchant.products.update({
                  id: fixed.id,
                  productUpdate: { prices: [{ amountType: "fixed", priceAmount: a.amount, priceCurrency: "usd" }] },
                }),
              );
              break;
            case "taxSettings":
              // The merchant changes what it collects (inclusive prices, OSS) while buyers look.
              await setTax(a.inclusive, a.oss);
              break;
            case "archive":
              await merchant.products.update({ id: custom.id, productUpdate: { isArchived: a.archived } });
              break;
            case "exhaust":
              // Other buyers used the discount up elsewhere.
              await api
                .knex("discounts")
                .where({ id: discounts[a.code].id })
                .update({ redemptions_count: api.knex.ref("max_redemptions") });
              break;
            case "deleteDiscount":
              await expected(merchant.discounts.delete({ id: discounts[a.code].id }));
              break;
            case "rediscount":
              await expected(
                merchant.discounts.update({
                  id: discounts[a.code].id,
                  discountUpdate:
                    a.code === 0
                      ? { type: "fixed", amount: a.amount, currency: "usd" }
                      : { type: "percentage", basisPoints: a.amount * 10 },
                }),
              );
              break;
          }
        }

        // The books: one payment per paid checkout, of the total its buyer had seen; no payment elsewhere.
        for (const [i, c] of checkouts.entries()) {
          const paid = await api.knex("payments").where({ checkout_id: c.id });
          const orders = await api.knex("orders").where({ checkout_id: c.id });
          if (paidAt.has(i)) {
            expect(paid.map((p) => Number(p.amount))).toEqual([paidAt.get(i)]);
            expect(orders.map((o) => Number(o.subtotal_amount) - Number(o.discount_amount) + Number(o.tax_amount))).toEqual([
              paidAt.get(i),
            ]);
            if (Number(orders[0].tax_amount) > 0) taxedOrders++;
          } else {
            expect(paid).toHaveLength(0);
            expect(orders).toHaveLength(0);
          }
        }
        // Redemptions are the orders that carry the discount (the "exhaust" action sets the count by hand, so only an upper bound then).
        for (const d of discounts) {
          const row = await api.knex("discounts").where({ id: d.id }).first();
          const redeemed = await api.knex("orders").where({ discount_id: d.id }).count<{ count: string }[]>("* as count");
          const exhausted = actions.some((a) => a.kind === "exhaust" && discounts[a.code].id === d.id);
          if (exhausted) expect(Number(redeemed[0].count)).toBeLessThanOrEqual(row.max_redemptions);
          else expect(row.redemptions_count).toBe(Number(redeemed[0].count));
        }
      }),
      { numRuns: Number(process.env.QUOTE_PROPERTY_RUNS ?? 30), endOnFailure: true },
    );
    expect(taxedOrders).toBeGreaterThan(0);
  }, 600_000);

  it("a view racing a refused confirm marks shown only the total it answers", async () => {
    const { org, token } = await orgWithToken(api.knex);
    const merchant = api.client(token);
    const anon = new Polar({ serverURL: api.url });
    const setTax = async (inclusive: boolean, oss: boolean) => {
      const registrations = [{ country: "FR" }, ...(oss ? [{ country: "EU", scheme: "oss" }] : [])];
      const settings = { provider: "builtin", origin_country: "FR", prices_include_tax: inclusive, registrations };
      expect((await plainJson(api.url, token)("PATCH", `/v1/organizations/${org.id}`, { tax_settings: settings })).status).toBe(200);
    };
    const confirm = (clientSecret: string) =>
      anon.checkouts.clientConfirm({
        clientSecret,
        checkoutConfirmStripe: { customerEmail: "race@example.com", confirmationTokenId: "tok_sandbox_success" },
      });
    await setTax(false, true);
    const product = await merchant.products.create({
      name: "App",
      recurringInterval: null,
      prices: [{ amountType: "fixed", priceAmount: 1000, priceCurrency: "eur" }],
    });
    const checkout = await merchant.checkouts.create({ products: [product.id] });
    const de = await anon.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { customerBillingAddress: { country: "DE" } },
    });
    expect(de.totalAmount).toBe(1190);
    // Prices now include tax: the confirm is refused and saves the new total (1000); 1190 is still the one shown.
    await setTax(true, true);
    await rejects(confirm(checkout.clientSecret), HTTPValidationError);
    // A view reads the checkout (it will answer 1000)...
    const viewed = (await findBySecret(api.knex, checkout.clientSecret))!;
    expect(Number(viewed.total_amount)).toBe(1000);
    // ...while the merchant leaves OSS (a German consumer pays France's 20%) and another confirm is refused, saving 1200...
    await setTax(false, false);
    await rejects(confirm(checkout.clientSecret), HTTPValidationError);
    // ...then the view marks what it answered.
    await markQuoteShown(api.knex, viewed);
    // The buyer last saw 1000: a confirm charging 1200 now would not be the price shown.
    await rejects(confirm(checkout.clientSecret), HTTPValidationError);
    expect(await api.knex("payments").where({ checkout_id: checkout.id })).toHaveLength(0);
    // Viewed again: 1200 is shown, and charged.
    expect((await anon.checkouts.clientGet({ clientSecret: checkout.clientSecret })).totalAmount).toBe(1200);
    expect((await confirm(checkout.clientSecret)).totalAmount).toBe(1200);
  });
});
