// What the activities are built with: the database and the server services they adapt. The
// activity files import server/ as types only (the `deps-graph` rule
// activities-take-server-as-types), so no import circle runs server → workflows → activities →
// server; the services are taken from the server in one place, workflows/activity-deps.ts.
import type { Knex } from "knex";
import type * as grantJobs from "../../server/benefit-grants/jobs.js";
import type * as emails from "../../server/emails/service.js";
import type * as emailReminders from "../../server/emails/reminders.js";
import type { Logger } from "../../server/kit/logger.js";
import type * as outbox from "../../server/kit/outbox-repository.js";
import type * as invoices from "../../server/orders/invoice.js";
import type { OrderDependents } from "../../server/orders/service.js";
import type * as billing from "../../server/subscriptions/billing.js";
import type * as taxIdCheck from "../../server/customers/tax-id-check.js";
import type * as orderTax from "../../server/orders/tax.js";
import type * as refundTax from "../../server/refunds/tax.js";
import type * as delivery from "../../server/webhooks/delivery.js";
import type { DirectDeliveries } from "../../server/webhooks/direct.js";
import type * as webhookRepository from "../../server/webhooks/repository.js";
import type * as door from "../../server/workflows-door.js";

export interface ActivityDeps {
  knex: Knex;
  logger: Logger;
  /** A grant job and what it is handed from above benefit grants (the customer state view). */
  benefitGrants: Pick<typeof grantJobs, "runBenefitGrantJob"> & grantJobs.GrantJobDependents;
  /** The invoice steps and what they are handed from above orders (the reader of an order's subscription). */
  invoices: Pick<typeof invoices, "storeInvoice"> & { orderDependents: OrderDependents };
  /** Sending one email of the send log, and the sends claimed outbox rows trigger. */
  emails: Pick<typeof emails, "deliverEmailSend" | "failEmailSend" | "emailsForOutbox">;
  /** The periodic emails due now (the `email-reminders` Schedule's runs). */
  emailReminders: Pick<typeof emailReminders, "enqueueDueReminders">;
  /** The relay's claim of outbox rows (the outbox table's repository). */
  outbox: Pick<typeof outbox, "lockUnpublished" | "markPublished">;
  subscriptions: Pick<typeof billing, "nextStep" | "runStep">;
  /** A customer's tax id check with VIES or HMRC. */
  taxIdChecks: Pick<typeof taxIdCheck, "runTaxIdCheck">;
  /** Stripe Tax's record of a paid order and reversal of a refund's tax, after their commits. */
  taxSync: Pick<typeof orderTax, "recordDueOrderTax"> & Pick<typeof refundTax, "revertDueRefundTax">;
  webhooks: Pick<
    typeof delivery,
    "nextQueuedEvent" | "attemptDelivery" | "attemptQueued" | "attemptSetAside" | "deliverQueued" | "setAsideEvent" | "settleEvent"
  > &
    Pick<typeof webhookRepository, "fanOut" | "leasedHeads" | "leaseIdleEndpoints">;
  /** Where endpoints with nothing else queued get their first attempts at once (server/webhooks/direct.ts); null: always wake the workflow. */
  directDeliveries: DirectDeliveries | null;
  /** Builds the door on the worker's own client and task queue (wake-ups of delivery workflows). */
  temporalDoor: typeof door.temporalDoor;
}
