// Usage of a subscription's metered prices: the running period's consumed and credited units and
// what they would bill so far (the Subscription's `meters`), and the billing of a period that ended
// (renewal, billing.ts): consumed units beyond the credits, times the unit amount, capped, once per
// subscription, meter and period, then each billed meter reset for the next period with its unused
// rollover credits carried over.
import type { Knex } from "knex";
import type { CustomerRow } from "../customers/repository.js";
import { storeEvents, type NewEvent } from "../events/store.js";
import type { MeterRow } from "../meters/models.js";
import { computeUsage, meteredCharge, type Usage } from "../meters/usage.js";
import type { PriceRow } from "../products/repository.js";
import { insertMeterBillings } from "./meter-billings-repository.js";

/**
 * What usage needs of a subscription row (server/subscriptions/repository.ts reads the rows and
 * calls runningUsage, so this file names the fields instead of importing the row type back).
 */
export interface UsageSubscription {
  id: string;
  organization_id: string;
  customer_id: string;
  status: string;
  current_period_start: Date;
  ended_at: Date | null;
}

export interface MeterUsage {
  consumed: number;
  credited: number;
  amount: number;
}

/** What the usage is computed from: the subscriptions' customers, prices and meters. */
export interface UsageSources {
  customers: Map<string, CustomerRow>;
  prices: Map<string, PriceRow[]>;
  meters: Map<string, MeterRow>;
}

const meteredPrices = (prices: PriceRow[] | undefined, meters: Map<string, MeterRow>) =>
  (prices ?? []).filter((p) => p.amount_type === "metered_unit" && p.meter_id !== null && meters.has(p.meter_id));

const LIVE = new Set(["active", "trialing", "past_due"]);

/** Per subscription, per metered price id: the running period's usage (an ended one's: up to its end). */
export async function runningUsage(db: Knex, rows: UsageSubscription[], src: UsageSources): Promise<Map<string, Map<string, MeterUsage>>> {
  const wanted = rows.flatMap((row) =>
    meteredPrices(src.prices.get(row.id), src.meters).map((price) => ({
      row,
      price,
      request: {
        meter: src.meters.get(price.meter_id!)!,
        customer: src.customers.get(row.customer_id)!,
        from: new Date(row.current_period_start),
        until: LIVE.has(row.status) ? null : row.ended_at ? new Date(row.ended_at) : null,
      },
    })),
  );
  const out = new Map<string, Map<string, MeterUsage>>();
  if (wanted.length === 0) return out;
  const usage = await computeUsage(
    db,
    wanted.map((w) => w.request),
  );
  wanted.forEach((w, i) => {
    const byPrice = out.get(w.row.id) ?? new Map<string, MeterUsage>();
    byPrice.set(w.price.id, {
      consumed: usage[i].consumed,
      credited: Math.trunc(usage[i].credited),
      amount: meteredCharge(usage[i], w.price).amount,
    });
    out.set(w.row.id, byPrice);
  });
  return out;
}

export interface PeriodBilling {
  price: PriceRow;
  meter: MeterRow;
  usage: Usage;
  billedUnits: number;
  amount: number;
}

/** What each metered price bills for the period [current_period_start, end) of `row` (locked by the caller). */
export async function billPeriod(trx: Knex.Transaction, row: UsageSubscription, src: UsageSources, end: Date): Promise<PeriodBilling[]> {
  // One billing per meter and period: a second price on the same meter is not billed again.
  const prices = meteredPrices(src.prices.get(row.id), src.meters).filter(
    (p, i, all) => all.findIndex((q) => q.meter_id === p.meter_id) === i,
  );
  if (prices.length === 0) return [];
  const customer = src.customers.get(row.customer_id)!;
  const usage = await computeUsage(
    trx,
    prices.map((p) => ({ meter: src.meters.get(p.meter_id!)!, customer, from: new Date(row.current_period_start), until: end })),
  );
  return prices.map((price, i) => ({ price, meter: src.meters.get(price.meter_id!)!, usage: usage[i], ...meteredCharge(usage[i], price) }));
}

/**
 * Records the period's billing of each meter on the renewal order (the unique key on subscription,
 * meter and period start refuses a second one), then resets each billed meter at the period's end
 * and credits back the unused part of its rollover credits.
 */
export async function closeMeteredPeriod(
  trx: Knex.Transaction,
  row: UsageSubscription,
  customer: CustomerRow,
  billings: PeriodBilling[],
  orderId: string,
  end: Date,
): Promise<void> {
  if (billings.length === 0) return;
  await insertMeterBillings(
    trx,
    billings.map((b) => ({
      subscription_id: row.id,
      meter_id: b.meter.id,
      product_price_id: b.price.id,
      order_id: orderId,
      period_start: row.current_period_start,
      period_end: end,
      consumed_units: b.usage.consumed,
      credited_units: Math.trunc(b.usage.credited),
      billed_units: b.billedUnits,
      amount: b.amount,
    })),
  );
  const events: NewEvent[] = [];
  const base = { timestamp: end, source: "system" as const, customerId: customer.id, externalCustomerId: customer.external_id };
  for (const meterId of new Set(billings.map((b) => b.meter.id))) {
    const b = billings.find((x) => x.meter.id === meterId)!;
    // What is left of the credits, up to what was credited with rollover, moves to the next period.
    const left = Math.max(0, Math.trunc(b.usage.credited) - Math.ceil(b.usage.consumed));
    const carried = Math.min(left, Math.max(0, Math.trunc(b.usage.rolloverCredited)));
    events.push(Object.assign({}, base, { name: "meter.reset" as const, metadata: { meter_id: meterId } }));
    if (carried > 0)
      events.push(
        Object.assign({}, base, { name: "meter.credited" as const, metadata: { meter_id: meterId, units: carried, rollover: true } }),
      );
  }
  await storeEvents(trx, row.organization_id, events);
}
