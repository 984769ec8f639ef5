// The merchant's notification that a webhook endpoint was disabled after failing every delivery
// for the configured span (the internal event email.webhook_endpoint_disabled, written by
// server/webhooks/delivery.ts in the transaction that disables it).
import type { InternalEvents } from "../../kit/outbox.js";
import { consoleWebhookEndpointLink } from "../links.js";
import type { EmailDefinition } from "../models.js";
import { merchantBase, memberSends } from "./common.js";

export const webhookEndpointDisabled: EmailDefinition = {
  kind: "webhook_endpoint_disabled",
  trigger: {
    on: ["email.webhook_endpoint_disabled"],
    sends(trx, event) {
      const endpoint: InternalEvents["email.webhook_endpoint_disabled"] = JSON.parse(event.data);
      return memberSends(trx, "webhook_endpoint_disabled", event, { endpoint });
    },
  },
  async message(_db, send, brand) {
    const endpoint = send.data.endpoint;
    if (!endpoint) return null;
    return {
      kind: "webhook_endpoint_disabled",
      brand,
      props: Object.assign(merchantBase(), {
        endpoint_url: endpoint.url,
        webhook_url: consoleWebhookEndpointLink(endpoint.endpoint_id),
        disabled_at: endpoint.disabled_at,
      }),
    };
  },
};
