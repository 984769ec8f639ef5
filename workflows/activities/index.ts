// Every activity the worker serves, built with its dependencies: the worker (workflows/worker.ts)
// calls createActivities once, test workers pick the factories they need.
import type { Knex } from "knex";
import type { DirectDeliveries } from "../../server/webhooks/direct.js";
import { createBenefitGrantActivities } from "./benefit-grants.js";
import { createInvoiceActivities } from "./invoice.js";
import { createOutboxActivities } from "./outbox.js";
import { createSubscriptionActivities } from "./subscriptions.js";
import { createWebhookActivities } from "./webhooks.js";

export interface ActivityDeps {
  knex: Knex;
  /** The fan-out's direct runs of first attempts (background work of the worker process). */
  directDeliveries: DirectDeliveries;
}

export function createActivities({ knex, directDeliveries }: ActivityDeps) {
  return {
    ...createOutboxActivities({ knex, directDeliveries }),
    ...createInvoiceActivities({ knex }),
    ...createWebhookActivities({ knex }),
    ...createSubscriptionActivities({ knex }),
    ...createBenefitGrantActivities({ knex }),
  };
}
