// How the API starts the invoice workflow: a Temporal client connected on first use to
// TEMPORAL_ADDRESS. The workflow id is the business id, so concurrent requests for one order
// join the same run. Tests and embedders may swap the starter (another client or task queue).
import type { Client } from "@temporalio/client";
import { temporalPort } from "../../workflows/client.js";
import { BOREALIS_TASK_QUEUE } from "../../workflows/shared/task-queues.js";
import type { invoiceWorkflow } from "../../workflows/workflows/invoice.js";

export const invoiceWorkflowId = (orderId: string) => `invoice:${orderId}`;

export interface InvoiceWorkflowStarter {
  start(orderId: string): Promise<void>;
}

export function temporalInvoiceStarter(client: Client | Promise<Client>, taskQueue = BOREALIS_TASK_QUEUE): InvoiceWorkflowStarter {
  return {
    async start(orderId) {
      const c = await client;
      await c.workflow.start<typeof invoiceWorkflow>("invoiceWorkflow", {
        workflowId: invoiceWorkflowId(orderId),
        taskQueue,
        args: [{ orderId }],
        workflowIdConflictPolicy: "USE_EXISTING",
      });
    },
  };
}

const port = temporalPort((client) => temporalInvoiceStarter(client));

export function getInvoiceWorkflowStarter(): InvoiceWorkflowStarter {
  return port.get();
}

export function setInvoiceWorkflowStarter(s: InvoiceWorkflowStarter | null): void {
  port.set(s);
}
