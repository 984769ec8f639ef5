// The email send log's activities: thin adapters over server/emails/service.ts. Idempotent: a
// send already sent, skipped or failed returns its status without sending.
import type { ActivityDeps } from "./deps.js";

export function createEmailActivities({ knex, emails }: Pick<ActivityDeps, "knex" | "emails">) {
  return {
    async sendEmail(sendId: string): Promise<string> {
      return emails.deliverEmailSend(knex, sendId);
    },
    async markEmailFailed(sendId: string, error: string): Promise<void> {
      await emails.failEmailSend(knex, sendId, error);
    },
  };
}

export type EmailActivities = ReturnType<typeof createEmailActivities>;
