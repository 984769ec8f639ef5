// Every workflow the worker serves: the worker bundles this file (workflowsPath), so a workflow
// not re-exported here cannot run.
export { outboxRelayWorkflow } from "./outbox-relay.js";
export { invoiceWorkflow } from "./invoice.js";
export { webhookEndpointWorkflow } from "./webhook-delivery.js";
export { benefitGrantJobWorkflow } from "./benefit-grant.js";
export { subscriptionWorkflow } from "./subscription.js";
export { webhookEventWorkflow } from "./webhook-event.js";
export { taxIdCheckWorkflow } from "./tax-id-check.js";
export { taxSyncWorkflow } from "./tax-sync.js";
export { emailSendWorkflow } from "./email-send.js";
export { emailRemindersWorkflow } from "./email-reminders.js";
export { backstopSweepWorkflow, confirmRecoveryWorkflow, idempotencyKeyCleanupWorkflow, usageFoldWorkflow } from "./periodic.js";
