// The backstop sweep: starts what should be running and is not. Every workflow starts right after
// its change commits (server/workflows-door.ts); a start lost in between is found here from the
// database: subscriptions, pending grant jobs, webhook endpoints with queued events, due tax id
// checks and Stripe Tax records, pending emails. Every start is idempotent, so overlapping sweeps
// are harmless. Runs on the worker's `backstop-sweep` Schedule (schedules.ts) every minute.
import type { Knex } from "knex";
import { stalePendingJobs } from "../server/benefit-grants/repository.js";
import { dueTaxIdChecks } from "../server/customers/repository.js";
import { pendingEmailSends } from "../server/emails/repository.js";
import { logger } from "../server/kit/logger.js";
import { dueTaxRecords } from "../server/orders/repository.js";
import { dueTaxReverts } from "../server/refunds/repository.js";
import { markSubscriptionWorkflowsStarted, subscriptionsDueOnClocks, unstartedSubscriptions } from "../server/subscriptions/repository.js";
import { queuedEndpoints } from "../server/webhooks/delivery.js";
import type { WorkflowsDoor } from "../server/workflows-door.js";

export type BackstopPart = "subscriptions" | "benefitGrantJobs" | "webhookEndpoints" | "taxIdChecks" | "taxSyncs" | "emailSends";

export interface BackstopOptions {
  /** Time between sweeps (the Schedule's interval). Default 1 minute. */
  everyMs?: number;
  /** A grant job younger than this is left to its own start. Default 30 seconds. */
  grantGraceMs?: number;
  /** A tax id check, or a Stripe Tax record or reversal, due for less than this is left to its own start. Default 30 seconds. */
  taxIdCheckGraceMs?: number;
  /** An email send pending for less than this is left to its own start. Default 30 seconds. */
  emailGraceMs?: number;
  /** What to sweep (a test harness that serves only webhooks sweeps only those). Default: everything. */
  parts?: readonly BackstopPart[];
}

const ALL_PARTS: readonly BackstopPart[] = [
  "subscriptions",
  "benefitGrantJobs",
  "webhookEndpoints",
  "taxIdChecks",
  "taxSyncs",
  "emailSends",
];
const GRANT_BATCH = 200;

/** One pass over every part; a part that fails is logged and the others still run. */
export async function sweepBackstop(knex: Knex, door: WorkflowsDoor, opts: BackstopOptions = {}): Promise<void> {
  const parts: Record<BackstopPart, () => Promise<void>> = {
    subscriptions: () => sweepSubscriptions(knex, door),
    benefitGrantJobs: () => sweepBenefitGrantJobs(knex, door, opts.grantGraceMs ?? 30_000),
    webhookEndpoints: () => sweepWebhookEndpoints(knex, door),
    taxIdChecks: () => sweepTaxIdChecks(knex, door, opts.taxIdCheckGraceMs ?? 30_000),
    taxSyncs: () => sweepTaxSyncs(knex, door, opts.taxIdCheckGraceMs ?? 30_000),
    emailSends: () => sweepEmailSends(knex, door, opts.emailGraceMs ?? 30_000),
  };
  for (const part of opts.parts ?? ALL_PARTS) {
    try {
      await parts[part]();
    } catch (err) {
      logger.warn({ err, part }, "backstop sweep failed; it runs again later");
    }
  }
}

/**
 * Starts the workflow of every live subscription not noted started, then pokes the subscriptions
 * due on test clocks. A poke is a signal-with-start: one more than needed is harmless.
 */
export async function sweepSubscriptions(knex: Knex, door: Pick<WorkflowsDoor, "pokeSubscriptions">): Promise<void> {
  for (let ids = await unstartedSubscriptions(knex); ids.length; ids = await unstartedSubscriptions(knex)) {
    await door.pokeSubscriptions(ids);
    await markSubscriptionWorkflowsStarted(knex, ids);
  }
  await pokeDueOnClocks(knex, door);
}

/**
 * Pokes the subscriptions on test clocks that are due by their clock's time: an advance whose pokes
 * were lost (Temporal away at that moment) still catches up instead of leaving its clock `advancing`.
 */
export async function pokeDueOnClocks(knex: Knex, door: Pick<WorkflowsDoor, "pokeSubscriptions">): Promise<void> {
  const due = await subscriptionsDueOnClocks(knex);
  if (due.length) await door.pokeSubscriptions(due);
}

/** Starts (or joins) the workflow of every job pending for longer than `graceMs`, `batch` jobs at a time. */
export async function sweepBenefitGrantJobs(
  knex: Knex,
  door: Pick<WorkflowsDoor, "startBenefitGrantJobs">,
  graceMs: number,
  batch = GRANT_BATCH,
): Promise<void> {
  const olderThan = new Date(Date.now() - graceMs);
  for (let afterId = 0; ;) {
    const jobs = await stalePendingJobs(knex, olderThan, batch, afterId);
    await door.startBenefitGrantJobs(jobs.map((j) => ({ jobId: Number(j.id), grantId: j.grant_id, action: j.action, seq: j.seq })));
    if (jobs.length < batch) return;
    afterId = Number(jobs[jobs.length - 1].id);
  }
}

/** Starts the delivery workflow of every endpoint with queued events and no live lease, unless it runs (no signal). */
export async function sweepWebhookEndpoints(knex: Knex, door: Pick<WorkflowsDoor, "wakeWebhookEndpoints">): Promise<void> {
  const endpointIds = await queuedEndpoints(knex);
  if (endpointIds.length) await door.wakeWebhookEndpoints(endpointIds, "ensure");
}

/** Starts (or joins) the check of every customer whose tax id check is due for longer than `graceMs`. */
export async function sweepTaxIdChecks(
  knex: Knex,
  door: Pick<WorkflowsDoor, "startTaxIdChecks">,
  graceMs: number,
  batch = GRANT_BATCH,
): Promise<void> {
  const ids = await dueTaxIdChecks(knex, new Date(Date.now() - graceMs), batch);
  await door.startTaxIdChecks(ids);
}

/** Starts the Stripe Tax records and reversals due for longer than `graceMs` (a lost start, or retries that ran out). */
export async function sweepTaxSyncs(
  knex: Knex,
  door: Pick<WorkflowsDoor, "startTaxSyncs">,
  graceMs: number,
  batch = GRANT_BATCH,
): Promise<void> {
  const before = new Date(Date.now() - graceMs);
  const records = (await dueTaxRecords(knex, before, batch)).map((id) => ({ kind: "record" as const, id }));
  const reverts = (await dueTaxReverts(knex, before, batch)).map((id) => ({ kind: "revert" as const, id }));
  await door.startTaxSyncs([...records, ...reverts]);
}

/**
 * Starts the workflow of every email send pending for longer than `graceMs` (a lost start). A
 * running one is joined; one that ended leaves its row sent, skipped or failed, never pending.
 */
export async function sweepEmailSends(
  knex: Knex,
  door: Pick<WorkflowsDoor, "startEmailSends">,
  graceMs: number,
  batch = GRANT_BATCH,
): Promise<void> {
  await door.startEmailSends(await pendingEmailSends(knex, new Date(Date.now() - graceMs), batch));
}
