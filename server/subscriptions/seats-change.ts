// A seat-based subscription's seat count, as Polar's `update_seats`: within its price's tiers and
// not below the seats handed out; the amount becomes the tiers' price for the new count, and the
// rest of the period is prorated as a product change is. Also the seats a product change keeps.
import type { Knex } from "knex";
import { requireCustomer } from "../customers/repository.js";
import { jsonb } from "../kit/db.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { findProduct, type PriceRow, type ProductRow } from "../products/repository.js";
import { seatBounds, seatsAmount } from "../products/seat-tiers.js";
import { assignedCount } from "../seats/repository.js";
import {
  AboveMaximumSeats,
  AlreadyCanceledSubscription,
  BelowMinimumSeats,
  NotASeatBasedSubscription,
  SeatsAlreadyAssigned,
  UpdateSubscriptionSeatsNotAllowed,
} from "./errors.js";
import { emitSubscription, recordSubscriptionEvent } from "./events.js";
import {
  isEnded,
  periodLeft,
  prorationBehavior,
  prorationSpan,
  resetPeriod,
  schedulePending,
  settleProration,
  type ProrationBehavior,
} from "./proration.js";
import { seatPriceOf, updateSubscription, type ProrationLine, type SubscriptionRow } from "./repository.js";

/** How many of the subscription's seats are handed out (pending or claimed). */
function seatsInUse(db: Knex, row: SubscriptionRow): Promise<number> {
  return assignedCount(db, {
    column: "subscription_id",
    id: row.id,
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    product_id: row.product_id,
    status: row.status,
    seats: row.seats ?? null,
  });
}

/** `seats` checked against the price's bounds and the seats in use. */
async function checkSeats(db: Knex, row: SubscriptionRow, price: PriceRow, seats: number): Promise<void> {
  const { minimum, maximum } = seatBounds(price.seat_tiers!);
  if (seats < minimum) throw new BelowMinimumSeats(minimum);
  if (maximum !== null && seats > maximum) throw new AboveMaximumSeats(maximum);
  const inUse = await seatsInUse(db, row);
  if (seats < inUse) throw new SeatsAlreadyAssigned(inUse, seats);
}

/**
 * Sets the seat count of `row` (locked by the caller), now or at the next period (next_period). A customer
 * may, unless the organization's portal settings say `subscription.update_seats: false`.
 */
export async function changeSeats(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  change: { seats: number; prorationBehavior?: ProrationBehavior | null },
  now: Date,
  by: "merchant" | "customer",
): Promise<SubscriptionRow> {
  const org = (await findOrganization(trx, row.organization_id)) as OrganizationRow;
  if (by === "customer" && org.customer_portal_settings?.subscription?.update_seats === false) {
    throw new UpdateSubscriptionSeatsNotAllowed();
  }
  if (isEnded(row) || row.cancel_at_period_end) throw new AlreadyCanceledSubscription();
  const behavior = prorationBehavior(org, change.prorationBehavior);
  const price = await seatPriceOf(trx, row.id);
  if (!price?.seat_tiers) throw new NotASeatBasedSubscription();
  await checkSeats(trx, row, price, change.seats);
  const oldSeats = row.seats ?? seatBounds(price.seat_tiers).minimum;
  const pending = row.pending_update ?? null;
  if (change.seats === oldSeats) {
    // The current count again cancels a seat change waiting for the next period; else nothing.
    if (pending?.seats === null || pending?.seats === undefined) return row;
    const left = pending.product_id ? schedulePending(row, { seats: null }) : null;
    const updated = await updateSubscription(trx, row.id, { pending_update: left, modified_at: new Date() });
    await emitSubscription(trx, updated, ["subscription.updated"]);
    return updated;
  }

  const product = (await findProduct(trx, row.product_id)) as ProductRow;
  const customer = await requireCustomer(trx, row.customer_id);
  const event = { subscription_id: row.id, old_seats: oldSeats, new_seats: change.seats, proration_behavior: behavior };
  if (behavior === "next_period") {
    const waiting = await updateSubscription(trx, row.id, {
      pending_update: schedulePending(row, { seats: change.seats }),
      modified_at: new Date(),
    });
    await emitSubscription(trx, waiting, ["subscription.updated"]);
    await recordSubscriptionEvent(trx, waiting, customer, "subscription.seats_updated", event, now);
    return waiting;
  }
  const newAmount = seatsAmount(price.seat_tiers, change.seats);
  // A trial was not paid for: the new count is first charged when it ends.
  const trialing = row.status === "trialing";
  const reset = behavior === "reset" && !trialing;
  const lines: ProrationLine[] = [];
  let period: Partial<SubscriptionRow> = {};
  if (reset) {
    // No credit for the time left: the new count in full, for a period from now.
    period = resetPeriod(now, row.recurring_interval, row.recurring_interval_count);
    const span = { start: now.toISOString(), end: period.current_period_end!.toISOString() };
    lines.push(Object.assign({ label: `${product.name} (${change.seats} seats)`, amount: newAmount, product_price_id: price.id }, span));
  } else {
    const left = trialing ? 0 : periodLeft(row, now);
    const credit = Math.round(Number(row.amount) * left);
    const charge = Math.round(newAmount * left);
    const span = prorationSpan(row, now);
    if (credit > 0) {
      lines.push(
        Object.assign({ label: `Unused time on ${product.name} (${oldSeats} seats)`, amount: -credit, product_price_id: null }, span),
      );
    }
    if (charge > 0) {
      lines.push(
        Object.assign(
          { label: `Remaining time on ${product.name} (${change.seats} seats)`, amount: charge, product_price_id: price.id },
          span,
        ),
      );
    }
  }
  const settled = await settleProration(trx, row, { product, price }, lines, behavior === "prorate" ? "prorate" : "invoice", now);
  // A waiting product change stays (it takes the new count); a waiting seat change is replaced.
  const left = pending?.product_id ? schedulePending(row, { seats: null }) : null;
  const updated = await updateSubscription(
    trx,
    row.id,
    Object.assign(
      {
        seats: change.seats,
        amount: newAmount,
        pending_prorations: jsonb(trx, settled.pending_prorations),
        pending_order_id: settled.pending_order_id,
        pending_update: left,
        modified_at: new Date(),
      },
      period,
    ),
  );
  await emitSubscription(trx, updated, ["subscription.updated"]);
  await recordSubscriptionEvent(trx, updated, customer, "subscription.seats_updated", event, now);
  return updated;
}

/**
 * The seats a product change leaves: onto a seat-based price, the current count (at least the
 * price's minimum, at most its maximum); onto another price (only from a plain one), none.
 */
export function seatsAfterProductChange(row: SubscriptionRow, price: PriceRow): number | null {
  if (price.amount_type !== "seat_based" || !price.seat_tiers) return null;
  const { minimum, maximum } = seatBounds(price.seat_tiers);
  const seats = Math.max(row.seats ?? minimum, minimum);
  if (maximum !== null && seats > maximum) throw new AboveMaximumSeats(maximum);
  return seats;
}
