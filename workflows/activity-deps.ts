// The one place the activities' services are taken from the server: the worker
// (workflows/worker.ts), the test harness (test/harness/worker.ts) and the tests' worker processes
// build ActivityDeps here and hand them to createActivities or to one domain's factory.
import type { Knex } from "knex";
import { runBenefitGrantJob } from "../server/benefit-grants/jobs.js";
import { runTaxIdCheck } from "../server/customers/tax-id-check.js";
import { enqueueDueReminders } from "../server/emails/reminders.js";
import { deliverEmailSend, emailsForOutbox, failEmailSend } from "../server/emails/service.js";
import { logger } from "../server/kit/logger.js";
import { lockUnpublished, markPublished } from "../server/kit/outbox-repository.js";
import { storeInvoice } from "../server/orders/invoice.js";
import { recordDueOrderTax } from "../server/orders/tax.js";
import { revertDueRefundTax } from "../server/refunds/tax.js";
import { nextStep, runStep } from "../server/subscriptions/billing.js";
import { readCustomerState } from "../server/subscriptions/customer-state.js";
import { orderDependents } from "../server/subscriptions/repository.js";
import {
  attemptDelivery,
  attemptQueued,
  attemptSetAside,
  deliverQueued,
  nextQueuedEvent,
  setAsideEvent,
  settleEvent,
} from "../server/webhooks/delivery.js";
import { DirectDeliveries } from "../server/webhooks/direct.js";
import { fanOut, leasedHeads, leaseIdleEndpoints } from "../server/webhooks/repository.js";
import { temporalDoor } from "../server/workflows-door.js";
import type { ActivityDeps } from "./activities/deps.js";

/** The activities' services over `knex`; direct runs of first attempts on a DirectDeliveries of their own unless given (null: none). */
export function activityDeps(knex: Knex, opts: { directDeliveries?: DirectDeliveries | null } = {}): ActivityDeps {
  return {
    knex,
    logger,
    benefitGrants: { runBenefitGrantJob, readCustomerState },
    emails: { deliverEmailSend, failEmailSend, emailsForOutbox },
    emailReminders: { enqueueDueReminders },
    invoices: { storeInvoice, orderDependents },
    outbox: { lockUnpublished, markPublished },
    subscriptions: { nextStep, runStep },
    taxIdChecks: { runTaxIdCheck },
    taxSync: { recordDueOrderTax, revertDueRefundTax },
    webhooks: {
      fanOut,
      nextQueuedEvent,
      attemptDelivery,
      attemptQueued,
      attemptSetAside,
      deliverQueued,
      setAsideEvent,
      settleEvent,
      leasedHeads,
      leaseIdleEndpoints,
    },
    directDeliveries: opts.directDeliveries === undefined ? new DirectDeliveries(knex) : opts.directDeliveries,
    temporalDoor,
  };
}
