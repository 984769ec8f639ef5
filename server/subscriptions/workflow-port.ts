// How the API and the services reach the subscription lifecycle workflows: after a change commits,
// `pokeSubscriptions` starts each one's workflow or, when it runs, signals it to look again
// (signal-with-start, keyed by the subscription id, so there is never a second one). A poke that
// fails (Temporal unreachable) is logged, not thrown: the change is committed, and the worker's
// sweep starts every live subscription whose workflow is not known to run.
import type { Client } from "@temporalio/client";
import type { Knex } from "knex";
import { temporalPort } from "../../workflows/client.js";
import { subscriptionWorkflowId } from "../../workflows/shared/ids.js";
import { subscriptionChangedSignal } from "../../workflows/shared/signals.js";
import { BOREALIS_TASK_QUEUE } from "../../workflows/shared/task-queues.js";
import type { subscriptionWorkflow } from "../../workflows/workflows/subscription.js";
import { afterCommit, outside } from "../kit/after-commit.js";
import { logger } from "../kit/logger.js";

export type SubscriptionPoker = (subscriptionIds: string[]) => Promise<void>;

export function temporalSubscriptionPoker(client: Client | Promise<Client>, taskQueue = BOREALIS_TASK_QUEUE): SubscriptionPoker {
  return async (ids) => {
    const c = await client;
    await Promise.all(
      [...new Set(ids)].map((subscriptionId) =>
        c.workflow.signalWithStart<typeof subscriptionWorkflow>("subscriptionWorkflow", {
          workflowId: subscriptionWorkflowId(subscriptionId),
          taskQueue,
          // Started by this code: its steps are local activities from the first run on.
          args: [{ subscriptionId, localSteps: true }],
          signal: subscriptionChangedSignal,
          signalArgs: [],
        }),
      ),
    );
  };
}

const port = temporalPort((client) => temporalSubscriptionPoker(client));

export function setSubscriptionPoker(p: SubscriptionPoker | null): void {
  port.set(p);
}

/** After commit: make sure each subscription's workflow runs and looks at what changed. */
export async function pokeSubscriptions(db: Knex, subscriptionIds: string[]): Promise<void> {
  if (subscriptionIds.length === 0) return;
  try {
    await port.get()(subscriptionIds);
    await db("subscriptions").whereIn("id", subscriptionIds).whereNull("workflow_started_at").update({ workflow_started_at: new Date() });
  } catch (err) {
    logger.warn({ err, subscriptionIds }, "could not reach the subscription workflows; the worker's sweep starts them");
  }
}

/**
 * Pokes once `trx` (and any transaction around it) commits, nothing when it rolls back: the
 * caller's change is visible to the workflow.
 */
export function pokeAfterCommit(db: Knex, trx: Knex.Transaction, subscriptionIds: string[]): void {
  if (subscriptionIds.length === 0) return;
  const base = outside(db);
  afterCommit(trx, () => pokeSubscriptions(base, subscriptionIds));
}

/** The sweep's work list: live subscriptions whose workflow was never confirmed started. */
export async function unstartedSubscriptions(db: Knex, limit = 500): Promise<string[]> {
  const rows = await db("subscriptions")
    .whereNull("workflow_started_at")
    .where((w) => w.whereIn("status", ["trialing", "active", "past_due"]).orWhereNotNull("pending_order_id"))
    .orderBy("created_at")
    .limit(limit)
    .select("id");
  return rows.map((r: { id: string }) => r.id);
}
