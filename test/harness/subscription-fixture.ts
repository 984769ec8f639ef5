// Subscription test data: a subscription as checkout confirmation leaves it (active, first period
// anchored at `startedAt`, its price, a saved card), built directly in the database for workflow
// tests that start from a given moment.
import type { Knex } from "knex";
import { periodBounds, type RecurringInterval } from "../../server/subscriptions/periods.js";
import type { SubscriptionRow } from "../../server/subscriptions/repository.js";
import { createCustomer, createMeter, createOrganization } from "./factories.js";

/** Saved sandbox cards: a method saved from this test card number renews (or declines) as it would. */
export const CARD_OK = "pm_sandbox_4242424242424242_fixture";
export const CARD_DECLINED = "pm_sandbox_4000000000000002_fixture";

export interface SubscriptionFixture {
  organizationId: string;
  customerId: string;
  productId: string;
  priceId: string;
  paymentMethodId: string;
  subscription: SubscriptionRow;
}

export async function createSubscriptionFixture(
  knex: Knex,
  opts: {
    startedAt: Date;
    interval?: RecurringInterval;
    amount?: number;
    card?: string;
    organizationId?: string;
    overrides?: Partial<Record<keyof SubscriptionRow, unknown>>;
  },
): Promise<SubscriptionFixture> {
  const interval = opts.interval ?? "month";
  const amount = opts.amount ?? 1000;
  const organizationId = opts.organizationId ?? (await createOrganization(knex)).id;
  const customer = await createCustomer(knex, organizationId);
  const [product] = await knex("products")
    .insert({ organization_id: organizationId, name: "Pro monthly", recurring_interval: interval })
    .returning("*");
  const [price] = await knex("product_prices")
    .insert({ product_id: product.id, amount_type: "fixed", price_currency: "usd", price_amount: amount, position: 0 })
    .returning("*");
  const [method] = await knex("payment_methods")
    .insert({
      organization_id: organizationId,
      customer_id: customer.id,
      processor: "stripe",
      type: "card",
      method_metadata: JSON.stringify({
        brand: "visa",
        last4: (opts.card ?? CARD_OK).slice(15, 19),
        exp_month: 12,
        exp_year: 2030,
        wallet: null,
      }),
      processor_ref: `${opts.card ?? CARD_OK}_${customer.id.slice(0, 8)}`,
      is_default: true,
    })
    .returning("*");
  const first = periodBounds(opts.startedAt, interval, 1, 0);
  const [subscription] = await knex("subscriptions")
    .insert({
      organization_id: organizationId,
      customer_id: customer.id,
      product_id: product.id,
      status: "active",
      amount,
      currency: "usd",
      recurring_interval: interval,
      billing_anchor: opts.startedAt,
      current_period_start: first.start,
      current_period_end: first.end,
      started_at: opts.startedAt,
      payment_method_id: method.id,
      ...opts.overrides,
    })
    .returning("*");
  await knex("subscription_prices").insert({ subscription_id: subscription.id, product_price_id: price.id, position: 0 });
  return {
    organizationId,
    customerId: customer.id,
    productId: product.id,
    priceId: price.id,
    paymentMethodId: method.id,
    subscription: subscription as SubscriptionRow,
  };
}

/** A metered price (2 cents a unit, no cap) on a meter of its own, added to the fixture's product and subscription. */
export async function addMeteredPrice(
  knex: Knex,
  f: SubscriptionFixture,
  meterName = "API calls",
): Promise<{ meterId: string; priceId: string }> {
  const meter = await createMeter(knex, f.organizationId, { name: meterName });
  const [price] = await knex("product_prices")
    .insert({
      product_id: f.productId,
      amount_type: "metered_unit",
      price_currency: "usd",
      meter_id: meter.id,
      unit_amount: "2",
      cap_amount: null,
      position: 1,
    })
    .returning("id");
  await knex("subscription_prices").insert({ subscription_id: f.subscription.id, product_price_id: price.id, position: 1 });
  return { meterId: meter.id, priceId: price.id };
}
