// How the API starts the invoice workflow: a Temporal client connected on first use to
// TEMPORAL_ADDRESS. The workflow id is the business id, so concurrent requests for one order
// join the same run. Tests and embedders may swap the starter (another client or task queue).
import type { Client } from "@temporalio/client";
import { createTemporalClient } from "../../workflows/client.js";
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

let starter: InvoiceWorkflowStarter | null = null;

export function getInvoiceWorkflowStarter(): InvoiceWorkflowStarter {
  if (!starter) {
    const client = createTemporalClient(process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233", process.env.TEMPORAL_NAMESPACE ?? "default");
    // A failed connection is retried on the next request instead of being cached.
    client.catch(() => {
      starter = null;
    });
    starter = temporalInvoiceStarter(client);
  }
  return starter;
}

export function setInvoiceWorkflowStarter(s: InvoiceWorkflowStarter | null): void {
  starter = s;
}
