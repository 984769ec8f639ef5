// Every activity the worker serves, built with its dependencies: the worker (workflows/worker.ts)
// calls createActivities once with the services of workflows/activity-deps.ts, test workers pick
// the factories they need.
import { createBenefitGrantActivities } from "./benefit-grants.js";
import { createEmailReminderActivities } from "./email-reminders.js";
import { createEmailActivities } from "./emails.js";
import { createInvoiceActivities } from "./invoice.js";
import { createOutboxActivities } from "./outbox.js";
import { createSubscriptionActivities } from "./subscriptions.js";
import { createTaxIdCheckActivities } from "./tax-id-check.js";
import { createTaxSyncActivities } from "./tax-sync.js";
import { createWebhookActivities } from "./webhooks.js";
import type { ActivityDeps } from "./deps.js";

export type { ActivityDeps } from "./deps.js";

export function createActivities(deps: ActivityDeps) {
  // Object.assign, not one spread after another (V8 11 builds a new hidden class for an object spread
  // followed by more properties); nested so each call keeps its exact type (three sources at most).
  return Object.assign(
    {},
    Object.assign({}, createOutboxActivities(deps), createEmailActivities(deps), createEmailReminderActivities(deps)),
    Object.assign({}, createInvoiceActivities(deps), createTaxIdCheckActivities(deps), createTaxSyncActivities(deps)),
    Object.assign({}, createWebhookActivities(deps), createSubscriptionActivities(deps), createBenefitGrantActivities(deps)),
  );
}
