// The periodic emails' activity: a thin adapter over server/emails/reminders.ts.
import type { ActivityDeps } from "./deps.js";

export function createEmailReminderActivities({ knex, emailReminders }: Pick<ActivityDeps, "knex" | "emailReminders">) {
  return {
    /** Enqueues the reminders due now (each customer's now: a test clock's time wins); how many were new. */
    async enqueueDueReminders(): Promise<{ renewals: number; cards: number }> {
      return emailReminders.enqueueDueReminders(knex);
    },
  };
}

export type EmailReminderActivities = ReturnType<typeof createEmailReminderActivities>;
