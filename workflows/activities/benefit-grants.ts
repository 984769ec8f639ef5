// Benefit grant activities: run one grant job (server/benefit-grants/jobs.ts) in its own
// transaction. A job whose workflow start was lost is started again by the backstop sweep
// (workflows/backstop.ts).
import type { Knex } from "knex";
import { runBenefitGrantJob } from "../../server/benefit-grants/jobs.js";

export function createBenefitGrantActivities({ knex }: { knex: Knex }) {
  return {
    async runBenefitGrantJob(jobId: number): Promise<string> {
      return runBenefitGrantJob(knex, jobId);
    },
  };
}

export type BenefitGrantActivities = ReturnType<typeof createBenefitGrantActivities>;
