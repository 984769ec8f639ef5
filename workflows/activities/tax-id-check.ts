// The tax id check activity: a thin adapter over server/customers/tax-id-check.ts. Idempotent:
// with no check due it does nothing, so a retry or a second start is harmless.
import type { ActivityDeps } from "./deps.js";

export function createTaxIdCheckActivities({ knex, taxIdChecks }: Pick<ActivityDeps, "knex" | "taxIdChecks">) {
  return {
    async checkCustomerTaxId(customerId: string): Promise<string | null> {
      return taxIdChecks.runTaxIdCheck(knex, customerId);
    },
  };
}

export type TaxIdCheckActivities = ReturnType<typeof createTaxIdCheckActivities>;
