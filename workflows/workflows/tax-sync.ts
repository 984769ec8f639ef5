// Stripe Tax's record of a paid order (`tax-record:<order>`) or reversal of a refund's tax
// (`tax-revert:<refund>`), started after the commit that made it due. Stripe down is retried here
// with backoff; past the attempts, the backstop sweep starts it again while it is still due.
import { proxyActivities } from "@temporalio/workflow";
import type { TaxSyncActivities } from "../activities/tax-sync.js";
import type { TaxSyncStart } from "../shared/workflows.js";

const { syncTax } = proxyActivities<TaxSyncActivities>({
  // Stripe's client retries twice itself, each call bounded by its own timeout.
  startToCloseTimeout: "5 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "10 minutes", maximumAttempts: 20 },
});

export async function taxSyncWorkflow(input: TaxSyncStart): Promise<string | null> {
  return syncTax(input);
}
