// The outbox: a state change writes its webhook event here in its own transaction, so the event
// exists exactly when the change committed; the body is the one sent (./webhook-json.ts).
import type { Knex } from "knex";
import { insertOutboxRows } from "./outbox-repository.js";
import { currentTraceContext } from "./telemetry.js";
import { webhookBody } from "./webhook-json.js";

export type WebhookEventType =
  | "checkout.created" | "checkout.updated"
  | "customer.created" | "customer.updated" | "customer.deleted" | "customer.state_changed"
  | "order.created" | "order.updated" | "order.paid" | "order.refunded"
  | "subscription.created" | "subscription.updated" | "subscription.active" | "subscription.canceled"
  | "subscription.uncanceled" | "subscription.revoked"
  | "refund.created" | "refund.updated"
  | "product.created" | "product.updated"
  | "benefit.created" | "benefit.updated"
  | "benefit_grant.created" | "benefit_grant.cycled" | "benefit_grant.updated" | "benefit_grant.revoked"
  | "organization.updated";

export async function emit(
  trx: Knex.Transaction,
  organizationId: string,
  type: WebhookEventType,
  data: unknown,
): Promise<void> {
  await emitAll(trx, organizationId, [type], data);
}

/** Several events about one entity (order.updated and order.paid, say), in one insert and in this order. */
export async function emitAll(trx: Knex.Transaction, organizationId: string, types: WebhookEventType[], data: unknown): Promise<void> {
  await emitEach(trx, organizationId, types.map((type) => ({ type, data })));
}

export interface OutboxEvent {
  type: WebhookEventType;
  data: unknown;
}

/** Events of one transaction, in one insert and in this order. */
export async function emitEach(trx: Knex.Transaction, organizationId: string, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const timestamp = new Date().toISOString();
  // With tracing on, the request's or activity's trace continues at the webhook delivery.
  const traceContext = currentTraceContext();
  await insertOutboxRows(
    trx,
    events.map(({ type, data }) => ({
      organization_id: organizationId,
      type,
      payload: webhookBody(type, timestamp, data),
      ...(traceContext && { trace_context: traceContext }),
    })),
  );
}
