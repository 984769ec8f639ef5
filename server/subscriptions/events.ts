// What a subscription change tells the world, inside the change's transaction: webhook events in
// the outbox (data: the Subscription exactly as the API returns it), and system events in the
// events store (subscription.cycled / revoked / product_updated).
import type { Knex } from "knex";
import type { CustomerRow } from "../customers/repository.js";
import { emit, type WebhookEventType } from "../kit/outbox.js";
import { toSubscription } from "./models.js";
import { loadSubscriptionRelations, type SubscriptionRow } from "./repository.js";

type SubscriptionEventType = Extract<WebhookEventType, `subscription.${string}`>;

export async function emitSubscription(trx: Knex.Transaction, row: SubscriptionRow, types: SubscriptionEventType[]): Promise<void> {
  if (types.length === 0) return;
  const data = toSubscription(row, await loadSubscriptionRelations(trx, [row]));
  for (const type of types) await emit(trx, row.organization_id, type, data);
}

export async function recordSubscriptionEvent(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  customer: Pick<CustomerRow, "id" | "external_id">,
  name: "subscription.cycled" | "subscription.revoked" | "subscription.product_updated",
  metadata: Record<string, string>,
  at: Date,
): Promise<void> {
  await trx("events").insert({
    timestamp: at,
    organization_id: row.organization_id,
    customer_id: customer.id,
    external_customer_id: customer.external_id,
    name,
    source: "system",
    metadata: JSON.stringify(metadata),
  });
}
