// Queries on subscription_meter_billings: what each metered price billed for a subscription's
// period. Its own module (not repository.ts) because usage.ts writes it, and repository.ts imports
// usage.ts (runningUsage) for the subscriptions it reads: this module imports nothing back.
import type { Knex } from "knex";

export interface MeterBillingRow {
  subscription_id: string;
  meter_id: string;
  product_price_id: string;
  order_id: string;
  period_start: Date;
  period_end: Date;
  consumed_units: number;
  credited_units: number;
  billed_units: number;
  amount: number;
}

/** Records billings; the unique key on subscription, meter and period start refuses a second one. */
export async function insertMeterBillings(trx: Knex.Transaction, rows: MeterBillingRow[]): Promise<void> {
  await trx("subscription_meter_billings").insert(rows);
}
