// Invoice activities: thin adapters over the order invoice service, each in its own transaction.
// Both are idempotent, so a retried activity never takes a second number nor writes twice.
import type { Knex } from "knex";
import { assignInvoiceNumber, storeInvoice } from "../../server/orders/invoice.js";

export function createInvoiceActivities({ knex }: { knex: Knex }) {
  return {
    async assignInvoiceNumber(orderId: string): Promise<number> {
      return assignInvoiceNumber(knex, orderId);
    },
    async storeInvoice(orderId: string): Promise<{ number: string; path: string }> {
      return storeInvoice(knex, orderId);
    },
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
