// Every activity the worker serves, built with its dependencies: the worker (workflows/worker.ts)
// calls createActivities once with the services of workflows/activity-deps.ts, test workers pick
// the factories they need.
import { createBenefitGrantActivities } from "./benefit-grants.js";
import { createInvoiceActivities } from "./invoice.js";
import { createOutboxActivities } from "./outbox.js";
import { createSubscriptionActivities } from "./subscriptions.js";
import { createWebhookActivities } from "./webhooks.js";
import type { ActivityDeps } from "./deps.js";

export type { ActivityDeps } from "./deps.js";

export function createActivities(deps: ActivityDeps) {
  return {
    ...createOutboxActivities(deps),
    ...createInvoiceActivities(deps),
    ...createWebhookActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createBenefitGrantActivities(deps),
  };
}
