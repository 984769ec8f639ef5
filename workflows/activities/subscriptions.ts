// Subscription activities: thin adapters over server/subscriptions/billing.ts, each step in its own
// transactions and idempotent, so Temporal may retry any of them.
import type { NextStep, StepOutcome } from "../../server/subscriptions/billing.js";
import type { ActivityDeps } from "./deps.js";

export function createSubscriptionActivities({ knex, subscriptions }: Pick<ActivityDeps, "knex" | "subscriptions">) {
  return {
    /** What is due next for the subscription, and when. */
    async nextSubscriptionStep(subscriptionId: string): Promise<NextStep> {
      return subscriptions.nextStep(knex, subscriptionId);
    },
    /**
     * Does what is due at `nowMs` (the workflow's time; a test clock's time wins), then tells what
     * is due after it, so the workflow need not ask again.
     */
    async runSubscriptionStep(subscriptionId: string, nowMs: number): Promise<{ outcome: StepOutcome; next: NextStep }> {
      return subscriptions.runStep(knex, subscriptionId, nowMs);
    },
  };
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
