// What the server may ask of each workflow it starts: the workflow type's name and the input it
// is started with. The server starts workflows by these names (server/workflows-door.ts) and never
// imports workflow code; workflows/worker.ts checks at compile time that the workflows it serves
// take these inputs, so a workflow whose input changes breaks the build, not a start.
import type { QueuedEvent } from "./webhooks.js";

export interface SubscriptionStart {
  subscriptionId: string;
}

export interface InvoiceStart {
  orderId: string;
}

export interface BenefitGrantJobStart {
  jobId: number;
  grantId: string;
}

export interface WebhookEndpointStart {
  endpointId: string;
  /** The wait before each attempt; tests inject a short one. */
  retryDelaysMs?: number[];
  /** How long an idle run waits for a new event before it ends. */
  idleMs?: number;
  /** How long a run of first attempts listens for the endpoint's next events once its queue is empty. */
  listenMs?: number;
  /** Events per run before continuing as new. */
  maxEvents?: number;
  /** Failing for this long disables the endpoint; tests inject it. */
  disableAfterMs?: number;
  /**
   * How long an event may hold back the events behind it (WEBHOOK_HOLD_MS, which the door passes):
   * one whose next attempt is due later than this after its first is set aside.
   */
  holdMs?: number;
  /** Started by a hand-over: the event whose first attempt failed outside the workflow. */
  handedOver?: QueuedEvent;
}

export interface TaxIdCheckStart {
  customerId: string;
}

/** Stripe Tax's record of a paid order, or its reversal of a refund's tax, after the commit that made it due. */
export interface TaxSyncStart {
  kind: "record" | "revert";
  /** The order (record) or the refund (revert). */
  id: string;
}

/** One email of the send log (email_sends), sent with Temporal's retries; tests shorten them. */
export interface EmailSendStart {
  sendId: string;
  /** Attempts before the send is marked failed (default 20). */
  maxAttempts?: number;
  /** The first retry's wait; each next one doubles, up to 10 minutes (default 2 s). */
  initialIntervalMs?: number;
}

/** The workflows the server starts, by type name, as the worker must serve them. */
export interface StartedWorkflows {
  subscriptionWorkflow: (input: SubscriptionStart) => Promise<unknown>;
  invoiceWorkflow: (input: InvoiceStart) => Promise<unknown>;
  benefitGrantJobWorkflow: (input: BenefitGrantJobStart) => Promise<unknown>;
  webhookEndpointWorkflow: (input: WebhookEndpointStart) => Promise<unknown>;
  taxIdCheckWorkflow: (input: TaxIdCheckStart) => Promise<unknown>;
  taxSyncWorkflow: (input: TaxSyncStart) => Promise<unknown>;
  emailSendWorkflow: (input: EmailSendStart) => Promise<unknown>;
}
