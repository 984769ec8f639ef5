// The outbox: a state change writes its webhook event here in its own transaction, so the event
// exists exactly when the change committed; the body is the one sent (./webhook-json.ts).
import type { Knex } from "knex";
import { insertOutboxRows } from "./outbox-repository.js";
import { currentTraceContext } from "./telemetry.js";
import { webhookBody } from "./webhook-json.js";

export type WebhookEventType =
  | "checkout.created"
  | "checkout.updated"
  | "customer.created"
  | "customer.updated"
  | "customer.deleted"
  | "customer.state_changed"
  | "order.created"
  | "order.updated"
  | "order.paid"
  | "order.refunded"
  | "subscription.created"
  | "subscription.updated"
  | "subscription.active"
  | "subscription.canceled"
  | "subscription.uncanceled"
  | "subscription.revoked"
  | "refund.created"
  | "refund.updated"
  | "product.created"
  | "product.updated"
  | "benefit.created"
  | "benefit.updated"
  | "benefit_grant.created"
  | "benefit_grant.cycled"
  | "benefit_grant.updated"
  | "benefit_grant.revoked"
  | "organization.updated"
  | "member.created"
  | "member.updated"
  | "member.deleted"
  | "customer_seat.assigned"
  | "customer_seat.claimed"
  | "customer_seat.revoked";

/**
 * Outbox types no webhook carries: facts only emails are sent for (server/emails/triggers.ts).
 * No endpoint can subscribe to them (an endpoint's events are the contract's WebhookEventType), so
 * the fan-out never queues them.
 */
export interface InternalEvents {
  /** A renewal charge (first try or dunning retry) declined; `past_due`: this decline made the subscription past due. */
  "email.subscription_payment_failed": {
    subscription_id: string;
    order_id: string;
    /** What was charged (minor units of `currency`). */
    amount: number;
    currency: string;
    attempt: number;
    next_payment_attempt_at: string | null;
    past_due: boolean;
  };
  /** A grant waits for its customer to connect their account (Discord) before it can be applied. */
  "email.benefit_grant_waiting": { benefit_grant_id: string };
  /** A seat was assigned, or its invitation is to go again: the holder is invited to claim it. */
  "email.seat_invitation": { seat_id: string };
  /** The subscription moved to another product. */
  "email.subscription_product_updated": { subscription_id: string; previous_product_id: string; product_id: string };
  /** Every delivery to the endpoint failed for the configured span: it is disabled. */
  "email.webhook_endpoint_disabled": {
    endpoint_id: string;
    url: string;
    failing_since: string;
    disabled_at: string;
    last_http_code: number | null;
  };
}
export type InternalEventType = keyof InternalEvents;

/** An internal event (InternalEvents) in the outbox, in the transaction of the change it tells. */
export async function emitInternal<T extends InternalEventType>(
  trx: Knex.Transaction,
  organizationId: string,
  type: T,
  data: InternalEvents[T],
): Promise<void> {
  await insertOutboxRows(trx, [
    { organization_id: organizationId, type, payload: JSON.stringify({ type, timestamp: new Date().toISOString(), data }) },
  ]);
}

export async function emit(trx: Knex.Transaction, organizationId: string, type: WebhookEventType, data: unknown): Promise<void> {
  await emitAll(trx, organizationId, [type], data);
}

/** Several events about one entity (order.updated and order.paid, say), in one insert and in this order. */
export async function emitAll(trx: Knex.Transaction, organizationId: string, types: WebhookEventType[], data: unknown): Promise<void> {
  await emitEach(
    trx,
    organizationId,
    types.map((type) => ({ type, data })),
  );
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
