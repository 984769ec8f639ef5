// Stripe Tax's record of a paid order and reversal of a refund's tax: thin adapters over
// server/orders/tax.ts and server/refunds/tax.ts. Idempotent: once the provider's id is stored,
// nothing is sent again, and a retry before that sends the same idempotency key.
import type { TaxSyncStart } from "../shared/workflows.js";
import type { ActivityDeps } from "./deps.js";

export function createTaxSyncActivities({ knex, taxSync }: Pick<ActivityDeps, "knex" | "taxSync">) {
  return {
    async syncTax(job: TaxSyncStart): Promise<string | null> {
      return job.kind === "record" ? taxSync.recordDueOrderTax(knex, job.id) : taxSync.revertDueRefundTax(knex, job.id);
    },
  };
}

export type TaxSyncActivities = ReturnType<typeof createTaxSyncActivities>;
