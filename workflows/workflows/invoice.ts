// The invoice of one order (workflow id `invoice:<orderId>`): render and store the PDF under the
// number the order was given when it was made. The database stays the source of truth; the step
// is idempotent, so retries and a re-run after a crash are safe.
import { proxyActivities } from "@temporalio/workflow";
import type { InvoiceActivities } from "../activities/invoice.js";

export interface InvoiceInput {
  orderId: string;
}

const { storeInvoice } = proxyActivities<InvoiceActivities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 20 },
});

export async function invoiceWorkflow(input: InvoiceInput): Promise<{ number: string; path: string }> {
  return storeInvoice(input.orderId);
}
