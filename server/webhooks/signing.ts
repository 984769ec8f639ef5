// Standard Webhooks signing exactly as the official client's `validateEvent` verifies: it
// base64-encodes the UTF-8 bytes of the endpoint's whole secret string (prefix included) and
// hands that to the standardwebhooks library, so we sign with the same key.
import { Webhook } from "standardwebhooks";

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signingKey(secret: string): string {
  return Buffer.from(secret, "utf8").toString("base64");
}

/** `id` is the webhook event id: the same across retries and redeliveries of one event. */
export function signWebhook(secret: string, id: string, body: string, at: Date = new Date()): SignedHeaders {
  const signature = new Webhook(signingKey(secret)).sign(id, at, body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
