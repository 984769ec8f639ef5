// The invoice activity: a thin adapter over the order invoice service, in its own transaction.
// Idempotent, so a retried activity never writes twice.
import type { ActivityDeps } from "./deps.js";

export function createInvoiceActivities({ knex, invoices }: Pick<ActivityDeps, "knex" | "invoices">) {
  return {
    async storeInvoice(orderId: string): Promise<{ number: string; path: string }> {
      return invoices.storeInvoice(knex, orderId, invoices.orderDependents);
    },
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
