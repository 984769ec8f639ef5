// The one door from the API to Temporal: start or poke subscriptions, invoices, grant jobs,
// webhook endpoints and emails, by type name with the inputs of workflows/shared/workflows.ts, so
// the server never imports workflow code (.dependency-cruiser.cjs). Starts run after commit; a lost
// one is found by the backstop sweep (workflows/backstop.ts). Tests replace parts with
// setWorkflowsDoor.
import type { Client } from "@temporalio/client";
import type { Knex } from "knex";
import { temporalPort } from "../workflows/client.js";
import {
  benefitGrantWorkflowId,
  emailRemindersScheduleId,
  emailSendWorkflowId,
  invoiceWorkflowId,
  subscriptionWorkflowId,
  taxIdCheckWorkflowId,
  taxSyncWorkflowId,
  webhookEndpointWorkflowId,
} from "../workflows/shared/ids.js";
import { subscriptionChangedSignal } from "../workflows/shared/signals.js";
import { BOREALIS_TASK_QUEUE } from "../workflows/shared/task-queues.js";
import { webhookEventsSignal, type WebhookHandOver } from "../workflows/shared/webhooks.js";
import type { StartedWorkflows, TaxSyncStart, WebhookEndpointStart } from "../workflows/shared/workflows.js";
import { setting } from "./config.js";
import { afterCommit } from "./kit/after-commit.js";
import type { UnitOfWork } from "./kit/unit-of-work.js";
import { logger } from "./kit/logger.js";
import { markSubscriptionWorkflowsStarted } from "./subscriptions/repository.js";
import { pokeListener } from "./webhooks/listeners.js";

/** A committed benefit grant job (server/benefit-grants/schedule.ts). */
export interface GrantJob {
  jobId: number;
  grantId: string;
  action: string;
  seq: number;
}

/**
 * How an endpoint's delivery workflow is woken: "signal" signal-with-starts it; "ensure" only
 * starts one that is not running (no signal, so a running one's history does not grow); a
 * hand-over signal-with-starts it telling which event's first attempt failed outside it.
 */
export type WakeHow = "signal" | "ensure" | WebhookHandOver;

export interface WorkflowsDoor {
  /** Starts each subscription's lifecycle workflow, or signals the running one to look again. */
  pokeSubscriptions(subscriptionIds: string[]): Promise<void>;
  /** Starts (or joins) the order's invoice workflow. */
  startInvoice(orderId: string): Promise<void>;
  /** Starts (or joins) each job's workflow; a finished one may run again (its job is still pending). */
  startBenefitGrantJobs(jobs: GrantJob[]): Promise<void>;
  /** Wakes (or starts) the delivery workflow of each endpoint; call after the queueing commit. */
  wakeWebhookEndpoints(endpointIds: string[], how?: WakeHow): Promise<void>;
  /** Starts (or joins) each customer's tax id check; a finished one runs again. */
  startTaxIdChecks(customerIds: string[]): Promise<void>;
  /** Starts (or joins) each order's Stripe Tax record or refund's reversal; a finished one runs again. */
  startTaxSyncs(jobs: TaxSyncStart[]): Promise<void>;
  /** Starts (or joins) each email send's workflow; a finished one runs again (it returns at once unless the row is pending). */
  startEmailSends(sendIds: string[]): Promise<void>;
  /** Runs the periodic emails' Schedule now (one run waits behind a running one). */
  runEmailReminders(): Promise<void>;
}

/** The workflows started once per due row (a grant job, a tax id check, a tax sync, an email send). */
type RerunWorkflow = "benefitGrantJobWorkflow" | "taxIdCheckWorkflow" | "taxSyncWorkflow" | "emailSendWorkflow";

/** Settings every delivery workflow this door starts gets (tests shorten the retry schedule); the hold is WEBHOOK_HOLD_MS unless given. */
export type WebhookWorkflowSettings = Omit<WebhookEndpointStart, "endpointId" | "handedOver">;

export function temporalDoor(
  client: Client | Promise<Client>,
  taskQueue = BOREALIS_TASK_QUEUE,
  webhookSettings: WebhookWorkflowSettings = {},
): WorkflowsDoor {
  /** Starts (or joins) one workflow per row; a finished one runs again (the sweep found its row still due). */
  async function startEach<W extends RerunWorkflow>(
    type: W,
    starts: { workflowId: string; args: Parameters<StartedWorkflows[W]> }[],
  ): Promise<void> {
    if (starts.length === 0) return;
    const c = await client;
    await Promise.all(
      starts.map(({ workflowId, args }) =>
        c.workflow.start<StartedWorkflows[W]>(type, {
          workflowId,
          taskQueue,
          args,
          workflowIdConflictPolicy: "USE_EXISTING",
          workflowIdReusePolicy: "ALLOW_DUPLICATE",
        }),
      ),
    );
  }
  return {
    async pokeSubscriptions(subscriptionIds) {
      const c = await client;
      await Promise.all(
        [...new Set(subscriptionIds)].map((subscriptionId) =>
          c.workflow.signalWithStart<StartedWorkflows["subscriptionWorkflow"]>("subscriptionWorkflow", {
            workflowId: subscriptionWorkflowId(subscriptionId),
            taskQueue,
            args: [{ subscriptionId }],
            signal: subscriptionChangedSignal,
            signalArgs: [],
          }),
        ),
      );
    },
    async startInvoice(orderId) {
      const c = await client;
      await c.workflow.start<StartedWorkflows["invoiceWorkflow"]>("invoiceWorkflow", {
        workflowId: invoiceWorkflowId(orderId),
        taskQueue,
        args: [{ orderId }],
        workflowIdConflictPolicy: "USE_EXISTING",
      });
    },
    startBenefitGrantJobs: (jobs) =>
      startEach(
        "benefitGrantJobWorkflow",
        jobs.map((job) => ({ workflowId: benefitGrantWorkflowId(job), args: [{ jobId: job.jobId, grantId: job.grantId }] })),
      ),
    startTaxIdChecks: (customerIds) =>
      startEach(
        "taxIdCheckWorkflow",
        [...new Set(customerIds)].map((customerId) => ({ workflowId: taxIdCheckWorkflowId(customerId), args: [{ customerId }] })),
      ),
    startTaxSyncs: (jobs) =>
      startEach(
        "taxSyncWorkflow",
        jobs.map((job) => ({ workflowId: taxSyncWorkflowId(job), args: [{ kind: job.kind, id: job.id }] })),
      ),
    startEmailSends: (sendIds) =>
      startEach(
        "emailSendWorkflow",
        [...new Set(sendIds)].map((sendId) => ({ workflowId: emailSendWorkflowId(sendId), args: [{ sendId }] })),
      ),
    async runEmailReminders() {
      const c = await client;
      await c.schedule.getHandle(emailRemindersScheduleId).trigger("BUFFER_ONE");
    },
    async wakeWebhookEndpoints(endpointIds, how = "signal") {
      // An endpoint whose run is listening in this process is handed its events directly.
      const toSignal = how === "signal" ? endpointIds.filter((id) => !pokeListener(id)) : endpointIds;
      if (toSignal.length === 0) return;
      const c = await client;
      const handOver = typeof how === "object" ? how : undefined;
      await Promise.all(
        toSignal.map(async (endpointId) => {
          const input: WebhookEndpointStart = Object.assign(
            { holdMs: setting("WEBHOOK_HOLD_MS") },
            webhookSettings,
            { endpointId },
            handOver ? { handedOver: handOver.failed } : {},
          );
          const start = { workflowId: webhookEndpointWorkflowId(endpointId), taskQueue, args: [input] as [WebhookEndpointStart] };
          if (how === "ensure") {
            await c.workflow.start<StartedWorkflows["webhookEndpointWorkflow"]>(
              "webhookEndpointWorkflow",
              Object.assign(start, { workflowIdConflictPolicy: "USE_EXISTING" as const }),
            );
          } else {
            const signalArgs: [WebhookHandOver?] = handOver ? [handOver] : [];
            await c.workflow.signalWithStart<StartedWorkflows["webhookEndpointWorkflow"], [WebhookHandOver?]>(
              "webhookEndpointWorkflow",
              Object.assign(start, { signal: webhookEventsSignal, signalArgs }),
            );
          }
        }),
      );
    },
  };
}

const port = temporalPort((client) => temporalDoor(client));
let replaced: Partial<WorkflowsDoor> = {};

/** This process's door: over the shared client, with the parts replaced by setWorkflowsDoor. */
export function workflowsDoor(): WorkflowsDoor {
  return Object.assign({}, port.get(), replaced);
}

/** Replaces parts of this process's door (another client, namespace or task queue); null: all back to the shared client's. */
export function setWorkflowsDoor(parts: Partial<WorkflowsDoor> | null): void {
  replaced = parts ? Object.assign({}, replaced, parts) : {};
}

/**
 * Makes sure each subscription's workflow runs and looks at what changed, then notes it started
 * (the sweep's work list is the subscriptions never noted). A poke that fails is logged, not
 * thrown: the change is committed, and the backstop sweep starts the workflow.
 */
export async function pokeSubscriptions(db: Knex, subscriptionIds: string[], door: WorkflowsDoor = workflowsDoor()): Promise<void> {
  if (subscriptionIds.length === 0) return;
  try {
    await door.pokeSubscriptions(subscriptionIds);
    await markSubscriptionWorkflowsStarted(db, subscriptionIds);
  } catch (err) {
    logger.warn({ err, subscriptionIds }, "could not reach the subscription workflows; the backstop sweep starts them");
  }
}

/** Pokes once `trx` (and the unit of work around it) commits, nothing when it rolls back. */
export function pokeAfterCommit(uow: UnitOfWork, trx: Knex.Transaction, subscriptionIds: string[]): void {
  if (subscriptionIds.length > 0) uow.afterCommit(trx, (pool) => pokeSubscriptions(pool, subscriptionIds));
}

/** Runs `start` on this process's door once `trx` commits; nothing on rollback. Never throws: the backstop sweep starts what was missed. */
function startAfterCommit(trx: Knex.Transaction, what: string, detail: object, start: (door: WorkflowsDoor) => Promise<void>): void {
  afterCommit(trx, () =>
    start(workflowsDoor()).catch((err: unknown) =>
      logger.warn(Object.assign({ err }, detail), `${what} not started; the backstop sweep starts them`),
    ),
  );
}

export function startGrantJobsAfterCommit(trx: Knex.Transaction, jobs: GrantJob[]): void {
  if (jobs.length > 0)
    startAfterCommit(trx, "benefit grant workflows", { jobs: jobs.map((j) => j.jobId) }, (door) => door.startBenefitGrantJobs(jobs));
}

export function startTaxIdChecksAfterCommit(trx: Knex.Transaction, customerIds: string[]): void {
  if (customerIds.length > 0) startAfterCommit(trx, "tax id checks", { customerIds }, (door) => door.startTaxIdChecks(customerIds));
}

/** Stripe Tax's records and reversals. */
export function startTaxSyncsAfterCommit(trx: Knex.Transaction, jobs: TaxSyncStart[]): void {
  if (jobs.length > 0) startAfterCommit(trx, "tax records", { jobs }, (door) => door.startTaxSyncs(jobs));
}

export function startEmailSendsAfterCommit(trx: Knex.Transaction, sendIds: string[]): void {
  if (sendIds.length > 0) startAfterCommit(trx, "email sends", { sendIds }, (door) => door.startEmailSends(sendIds));
}

/**
 * Runs the periodic emails once `trx` commits (a test clock's advance: its customers' reminders are
 * due at its new time, not at the Schedule's next run). Never throws: the Schedule's next run sends them.
 */
export function runEmailRemindersAfterCommit(trx: Knex.Transaction): void {
  afterCommit(trx, () =>
    workflowsDoor()
      .runEmailReminders()
      .catch((err: unknown) => logger.warn({ err }, "email reminders not run; the Schedule's next run sends them")),
  );
}
