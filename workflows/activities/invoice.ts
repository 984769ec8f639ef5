// Invoice activities: thin adapters over the order invoice service, each in its own transaction.
// Both are idempotent, so a retried activity never takes a second number nor writes twice.
import type { ActivityDeps } from "./deps.js";

export function createInvoiceActivities({ knex, invoices }: Pick<ActivityDeps, "knex" | "invoices">) {
  return {
    async assignInvoiceNumber(orderId: string): Promise<string> {
      return invoices.assignInvoiceNumber(knex, orderId);
    },
    async storeInvoice(orderId: string): Promise<{ number: string; path: string }> {
      return invoices.storeInvoice(knex, orderId, invoices.orderDependents);
    },
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
