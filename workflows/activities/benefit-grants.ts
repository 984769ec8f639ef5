// Benefit grant activities: run one grant job (server/benefit-grants/jobs.ts) in its own
// transaction. A job whose workflow start was lost is started again by the backstop sweep
// (workflows/backstop.ts).
import type { ActivityDeps } from "./deps.js";

export function createBenefitGrantActivities({ knex, benefitGrants }: Pick<ActivityDeps, "knex" | "benefitGrants">) {
  return {
    async runBenefitGrantJob(jobId: number): Promise<string> {
      return benefitGrants.runBenefitGrantJob(knex, jobId, { readCustomerState: benefitGrants.readCustomerState });
    },
  };
}

export type BenefitGrantActivities = ReturnType<typeof createBenefitGrantActivities>;
