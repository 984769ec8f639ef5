// What a subscription change tells the world, inside the change's transaction: webhook events in
// the outbox (data: the Subscription exactly as the API returns it), and system events in the
// events store (subscription.cycled / revoked / product_updated / seats_updated / update_cleared,
// and balance.credit_order for an order paid with no charge).
import type { Knex } from "knex";
import type { CustomerRow } from "../customers/repository.js";
import { readCustomerState } from "./customer-state.js";
import { storeEvents } from "../events/store.js";
import { emitEach, type OutboxEvent, type WebhookEventType } from "../kit/outbox.js";
import { netAmount } from "../orders/models.js";
import type { OrderRow } from "../orders/repository.js";
import { toSubscription } from "./models.js";
import { loadSubscriptionRelations, type SubscriptionRelations, type SubscriptionRow } from "./repository.js";

export type SubscriptionEventType = Extract<WebhookEventType, `subscription.${string}`>;

/** Events after which the customer's state (its active subscriptions) reads differently. */
const STATE_CHANGING: SubscriptionEventType[] = [
  "subscription.active",
  "subscription.canceled",
  "subscription.uncanceled",
  "subscription.revoked",
];

export async function emitSubscription(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  types: SubscriptionEventType[],
  opts: {
    stateChanged?: boolean;
    /** The subscription's relations, when the caller has read them in this transaction already. */
    rel?: SubscriptionRelations;
    /** Events of the same transaction (the order paid with it, say) to write first, in the same insert. */
    before?: OutboxEvent[];
  } = {},
): Promise<void> {
  if (types.length === 0) return;
  const rel = opts.rel ?? (await loadSubscriptionRelations(trx, [row]));
  const data = toSubscription(row, rel);
  const events: OutboxEvent[] = [...(opts.before ?? []), ...types.map((type) => ({ type, data }))];
  if (opts.stateChanged || types.some((t) => STATE_CHANGING.includes(t))) {
    events.push({ type: "customer.state_changed", data: await readCustomerState(trx, rel.customers.get(row.customer_id)!) });
  }
  await emitEach(trx, row.organization_id, events);
}

export async function recordSubscriptionEvent(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  customer: Pick<CustomerRow, "id" | "external_id">,
  name:
    | "subscription.cycled"
    | "subscription.revoked"
    | "subscription.product_updated"
    | "subscription.seats_updated"
    | "subscription.update_cleared",
  metadata: Record<string, string | number>,
  at: Date,
): Promise<void> {
  await storeEvents(trx, row.organization_id, [
    { timestamp: at, name, source: "system", customerId: customer.id, externalCustomerId: customer.external_id, metadata },
  ]);
}

/**
 * Polar's `balance.credit_order`: an order paid with no charge (its wallet paid it all, or nothing
 * was due), dated at the order's creation, with its net, tax, fee and tax location.
 */
export async function recordCreditOrder(
  trx: Knex.Transaction,
  order: OrderRow,
  customer: Pick<CustomerRow, "id" | "external_id">,
): Promise<void> {
  const metadata: Record<string, string | number> = {
    order_id: order.id,
    product_id: order.product_id,
    amount: netAmount(order),
    currency: order.currency,
    tax_amount: order.tax_amount,
    fee: order.platform_fee_amount,
  };
  if (order.subscription_id) metadata.subscription_id = order.subscription_id;
  if (order.tax_rate?.country) metadata.tax_country = order.tax_rate.country;
  if (order.tax_rate?.state) metadata.tax_state = order.tax_rate.state;
  await storeEvents(trx, order.organization_id, [
    {
      timestamp: order.created_at,
      name: "balance.credit_order",
      source: "system",
      customerId: customer.id,
      externalCustomerId: customer.external_id,
      metadata,
    },
  ]);
}
