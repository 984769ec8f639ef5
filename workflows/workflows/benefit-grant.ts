// One benefit grant job (workflow id `benefit-grant:<grant id>:<action>:<seq>`): grant, revoke,
// cycle or update one grant. The activity applies the grant's pending jobs up to this one in
// sequence order under the grant's row lock, so actions never overtake each other, and a job a
// later workflow already applied is a no-op here. Provider failures (Discord, GitHub) fail the
// activity after recording the grant's error; Temporal retries it with backoff until it succeeds.
import { proxyActivities } from "@temporalio/workflow";
import type { BenefitGrantActivities } from "../activities/benefit-grants.js";

export interface BenefitGrantJobInput {
  jobId: number;
  grantId: string;
}

const { runBenefitGrantJob } = proxyActivities<BenefitGrantActivities>({
  // The provider calls have a 10 s timeout each.
  startToCloseTimeout: "2 minutes",
  // No attempt limit: a provider outage or a missing token ends when it is fixed, then the grant follows.
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "1 hour" },
});

export async function benefitGrantJobWorkflow(input: BenefitGrantJobInput): Promise<string> {
  return runBenefitGrantJob(input.jobId);
}
