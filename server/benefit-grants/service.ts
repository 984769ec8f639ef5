// Benefit grants: what other domains call inside their own transaction to grant, revoke, cycle
// or update grants (schedule.ts), and the customer portal's grants and downloadables.
export {
  scheduleBenefitCycles, scheduleBenefitDeletion, scheduleBenefitGrants, scheduleBenefitRevocations, scheduleBenefitUpdates,
  type GrantScheduleInput, type RevocationScheduleInput,
} from "./schedule.js";
