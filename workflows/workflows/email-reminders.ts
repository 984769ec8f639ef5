// One run of the periodic emails (the Temporal Schedule `email-reminders`, which workflows/worker.ts
// creates; a test clock's advance triggers it too): enqueue the renewal reminders and card-expiring
// reminders that are due. Enqueueing is idempotent (one row per dedupe key), so a run that repeats
// one (an overlap, a retry) sends nothing twice.
import { proxyActivities } from "@temporalio/workflow";
import type { EmailReminderActivities } from "../activities/email-reminders.js";

const { enqueueDueReminders } = proxyActivities<EmailReminderActivities>({
  startToCloseTimeout: "10 minutes",
  retry: { initialInterval: "5 seconds", backoffCoefficient: 2, maximumInterval: "5 minutes", maximumAttempts: 10 },
});

export async function emailRemindersWorkflow(): Promise<{ renewals: number; cards: number }> {
  return enqueueDueReminders();
}
