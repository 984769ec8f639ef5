// The data provider's calls beyond CRUD for meters, events, test clocks and webhooks.
import type { EventName, MeterQuantities, WebhookEndpoint, WebhookQueue } from "../api";
import { call, type Query } from "./request";

export const usageMethods = {
  async getMeterQuantities(id: string, query: Query) {
    return { data: await call<MeterQuantities>("GET", "/v1/meters/{id}/quantities", { path: { id }, query }) };
  },
  async setMeterArchived(id: string, archived: boolean) {
    return { data: await call<unknown>("PATCH", "/v1/meters/{id}", { path: { id }, body: { is_archived: archived } }) };
  },
  /** The event names seen lately, the most recent first. */
  async getEventNames() {
    const page = await call<{ items: EventName[] }>("GET", "/v1/events/names", { query: { limit: 100, sorting: "-last_seen" } });
    return { data: page.items };
  },
  async advanceTestClock(id: string, frozenTime: string) {
    return { data: await call<unknown>("POST", "/v1/test-clocks/{id}/advance", { path: { id }, body: { frozen_time: frozenTime } }) };
  },
  async attachTestClockCustomer(id: string, customerId: string | undefined) {
    return { data: await call<unknown>("POST", "/v1/test-clocks/{id}/customers", { path: { id }, body: { customer_id: customerId } }) };
  },
  async redeliverWebhookEvent(eventId: string) {
    return { data: await call<unknown>("POST", "/v1/webhooks/events/{id}/redeliver", { path: { id: eventId } }) };
  },
  async replayWebhookEndpoint(id: string, body: Record<string, unknown>) {
    return { data: await call<{ replayed: number }>("POST", "/v1/webhooks/endpoints/{id}/replay", { path: { id }, body }) };
  },
  /** The endpoint's ordered queue: the head being delivered and the events waiting behind it. */
  async getWebhookQueue(id: string) {
    return { data: await call<WebhookQueue>("GET", "/v1/webhooks/endpoints/{id}/queue", { path: { id } }) };
  },
  /** Takes the queue's head out, unsent (refused unless `eventId` is still the head). */
  async skipWebhookQueueHead(id: string, eventId: string) {
    return {
      data: await call<WebhookQueue>("POST", "/v1/webhooks/endpoints/{id}/queue/skip", { path: { id }, body: { event_id: eventId } }),
    };
  },
  async resetWebhookSecret(id: string) {
    return { data: await call<WebhookEndpoint>("PATCH", "/v1/webhooks/endpoints/{id}/secret", { path: { id } }) };
  },
  async setWebhookEndpointEnabled(id: string, enabled: boolean) {
    return { data: await call<WebhookEndpoint>("PATCH", "/v1/webhooks/endpoints/{id}", { path: { id }, body: { enabled } }) };
  },
};
