// One customer's tax id check (workflow id `tax-id-check:<customer>`): ask VIES or HMRC and record
// the answer. An unavailable registry is an answer too (recorded, due again later for the backstop
// sweep); only a failure of our own (the database) is retried here.
import { proxyActivities } from "@temporalio/workflow";
import type { TaxIdCheckActivities } from "../activities/tax-id-check.js";

export interface TaxIdCheckInput {
  customerId: string;
}

const { checkCustomerTaxId } = proxyActivities<TaxIdCheckActivities>({
  // A registry call is bounded by TAX_ID_CHECK_TIMEOUT_MS (at most a minute, and HMRC's token first).
  startToCloseTimeout: "3 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "5 minutes", maximumAttempts: 10 },
});

export async function taxIdCheckWorkflow(input: TaxIdCheckInput): Promise<string | null> {
  return checkCustomerTaxId(input.customerId);
}
