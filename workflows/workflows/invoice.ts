// The invoice of one order (workflow id `invoice:<orderId>`): take the order's number from the
// organization's gapless counter, then render and store the PDF. The database stays the source
// of truth; both steps are idempotent, so retries and a re-run after a crash are safe.
import { proxyActivities } from "@temporalio/workflow";
import type { InvoiceActivities } from "../activities/invoice.js";

export interface InvoiceInput {
  orderId: string;
}

const { assignInvoiceNumber, storeInvoice } = proxyActivities<InvoiceActivities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 20 },
});

export async function invoiceWorkflow(input: InvoiceInput): Promise<{ number: string; path: string }> {
  await assignInvoiceNumber(input.orderId);
  return storeInvoice(input.orderId);
}
