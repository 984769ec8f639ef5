// Workflow-id builders. The workflow id is the business id: starting a workflow whose id is
// already running returns that run instead of a second one, which is what keeps singletons
// single and per-record processes (one per subscription, later) unique.

/** The outbox relay runs once per namespace. */
export const outboxRelayWorkflowId = "outbox-relay";

/** One lifecycle workflow per subscription, for its whole life (continued as new each cycle). */
export const subscriptionWorkflowId = (subscriptionId: string) => `subscription:${subscriptionId}`;
