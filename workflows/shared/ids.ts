// Workflow-id builders, one per workflow type: the only place an id is spelled. The workflow id
// is the business id: starting a workflow whose id is already running returns that run instead
// of a second one, which is what keeps singletons single and per-record processes unique.

/** The outbox relay runs once per namespace. */
export const outboxRelayWorkflowId = "outbox-relay";

/** The Schedule of the periodic emails (renewal and card-expiring reminders), once per namespace. */
export const emailRemindersScheduleId = "email-reminders";

/** The worker's other periodic Schedules (workflows/schedules.ts), once per namespace each. */
export const backstopSweepScheduleId = "backstop-sweep";
export const confirmRecoveryScheduleId = "confirm-recovery";
export const usageFoldScheduleId = "usage-fold";
export const idempotencyKeyCleanupScheduleId = "idempotency-key-cleanup";

/** One lifecycle workflow per subscription, for its whole life (continued as new each cycle). */
export const subscriptionWorkflowId = (subscriptionId: string) => `subscription:${subscriptionId}`;

/** One invoice workflow per order: concurrent requests for one order join the same run. */
export const invoiceWorkflowId = (orderId: string) => `invoice:${orderId}`;

/** One delivery workflow per webhook endpoint (it keeps the endpoint's events in order). */
export const webhookEndpointWorkflowId = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/**
 * One workflow per set-aside queueing of a webhook event (its retries on its own, out of its
 * endpoint's ordered queue); a redelivery queues the event again, so a later set-aside has its own.
 */
export const webhookEventWorkflowId = (eventId: string, queued: number) => `webhook-event:${eventId}:${queued}`;

/** One workflow per benefit grant job: the grant, the action and the job's sequence number. */
export const benefitGrantWorkflowId = (job: { grantId: string; action: string; seq: number }) =>
  `benefit-grant:${job.grantId}:${job.action}:${job.seq}`;

/** One tax id check per customer at a time: it checks whatever tax id the customer has when it runs. */
export const taxIdCheckWorkflowId = (customerId: string) => `tax-id-check:${customerId}`;

/** One send per email_sends row: `email:<send id>`. */
export const emailSendWorkflowId = (sendId: string) => `email:${sendId}`;

/** One record per order and one reversal per refund: `tax-record:<order>`, `tax-revert:<refund>` (Stripe's idempotency keys too). */
export const taxSyncWorkflowId = (job: { kind: "record" | "revert"; id: string }) => `tax-${job.kind}:${job.id}`;
