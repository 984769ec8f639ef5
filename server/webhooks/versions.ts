// A webhook event's payload in the API version it was recorded in (its endpoint's `api_version`
// then): what is sent and what the deliveries list shows. The payload is stored whole; the
// contract's `x-api-version` marks say what a version leaves out (server/kit/api-versions.ts).
import { versionedWebhooks } from "../kit/api-versions.js";
import { readContract } from "../kit/openapi.js";
import type { WebhookEventRow } from "./repository.js";

let shape: ReturnType<typeof versionedWebhooks> | undefined;

export function payloadOf(event: Pick<WebhookEventRow, "type" | "api_version" | "payload">): string {
  shape ??= versionedWebhooks(readContract());
  return shape(event.type, event.api_version, event.payload);
}
