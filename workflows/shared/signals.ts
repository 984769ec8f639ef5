// Signal definitions, shared by the workflows that handle them and the code that sends them.
import { defineSignal } from "@temporalio/workflow";

/**
 * "New outbox rows were committed": wakes the outbox relay before its idle sleep ends. Send it
 * only after the transaction commits; it carries no data because the table is the source of
 * truth, and a lost signal costs at most one idle sleep of latency.
 */
export const outboxSignal = defineSignal("outbox");

/**
 * "This subscription changed" (canceled, uncanceled, a product change with an invoice to charge, a
 * new payment method, its test clock advanced): the lifecycle workflow re-reads what is due next.
 * No data: the database is the source of truth.
 */
export const subscriptionChangedSignal = defineSignal("subscriptionChanged");
