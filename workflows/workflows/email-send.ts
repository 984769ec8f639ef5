// One email of the send log (workflow id `email:<send id>`): send it, retrying an SMTP failure
// with backoff; once the attempts run out the row is marked failed with the last error. The row
// is the source of truth: a run for a row already sent, skipped or failed returns at once.
import { ActivityFailure, proxyActivities } from "@temporalio/workflow";
import type { EmailActivities } from "../activities/emails.js";
import type { EmailSendStart } from "../shared/workflows.js";

const { markEmailFailed } = proxyActivities<EmailActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

export async function emailSendWorkflow(input: EmailSendStart): Promise<string> {
  const { sendEmail } = proxyActivities<EmailActivities>({
    // An SMTP exchange (its waits bounded in server/kit/mail.ts), the render and the loader's reads.
    startToCloseTimeout: "1 minute",
    retry: {
      initialInterval: input.initialIntervalMs ?? 2_000,
      backoffCoefficient: 2,
      maximumInterval: "10 minutes",
      maximumAttempts: input.maxAttempts ?? 20,
    },
  });
  try {
    return await sendEmail(input.sendId);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await markEmailFailed(input.sendId, err.cause?.message || err.message);
    return "failed";
  }
}
