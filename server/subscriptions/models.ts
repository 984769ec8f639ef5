// The Subscription (merchant), CustomerSubscription (portal) and CustomerStateSubscription wire
// shapes (the fields they share, and the OrderSubscription inside orders, are orders/models.ts's).
import type { components } from "../../generated/types.js";
import { toCustomerBase } from "../customers/models.js";
import { toDiscountBase } from "../discounts/models.js";
import { derivedUuid } from "../kit/ids.js";
import { iso, isoRequired } from "../kit/time.js";
import { toMeter } from "../meters/models.js";
import { toSubscriptionBase } from "../orders/models.js";
import { toPublicOrganization } from "../organizations/models.js";
import { toCustomerProduct, toPrice, toProduct } from "../products/models.js";
import type { PriceRow } from "../products/repository.js";
import type { SubscriptionRelations, SubscriptionRow } from "./repository.js";

export type SubscriptionOut = components["schemas"]["Subscription"];
export type CustomerSubscriptionOut = components["schemas"]["CustomerSubscription"];
export type StateSubscriptionOut = components["schemas"]["CustomerStateSubscription"];

/**
 * One entry per metered price: the running period's consumed and credited units and what they
 * bill so far. Its id is derived from the subscription and the meter, stable across reads.
 */
function toMeters(row: SubscriptionRow, prices: PriceRow[], rel: SubscriptionRelations) {
  const usage = rel.usage.get(row.id);
  return prices
    .filter((p) => p.amount_type === "metered_unit" && p.meter_id && rel.meters.has(p.meter_id))
    .map((p) => {
      const u = usage?.get(p.id) ?? { consumed: 0, credited: 0, amount: 0 };
      return {
        created_at: isoRequired(row.created_at),
        modified_at: iso(row.modified_at),
        id: derivedUuid("subscription_meter", row.id, p.meter_id!),
        consumed_units: u.consumed,
        credited_units: u.credited,
        amount: u.amount,
        meter_id: p.meter_id!,
        meter: toMeter(rel.meters.get(p.meter_id!)!),
      };
    });
}

function toPendingUpdate(row: SubscriptionRow): components["schemas"]["PendingSubscriptionUpdate"] | null {
  const p = row.pending_update;
  if (!p) return null;
  return {
    created_at: p.created_at,
    modified_at: p.modified_at,
    id: p.id,
    applies_at: p.applies_at,
    product_id: p.product_id,
    seats: p.seats,
    units: null,
  };
}

export function toSubscription(row: SubscriptionRow, rel: SubscriptionRelations): SubscriptionOut {
  const product = rel.products.get(row.product_id)!;
  const prices = rel.prices.get(row.id) ?? [];
  const discount = row.discount_id ? rel.discounts.get(row.discount_id) : undefined;
  return Object.assign(toSubscriptionBase(row), {
    metadata: row.metadata,
    custom_field_data: row.custom_field_data,
    customer: toCustomerBase(rel.customers.get(row.customer_id)!),
    product: toProduct(product, rel.productRelations.get(product.id)!),
    discount: discount ? toDiscountBase(discount) : null,
    prices: prices.map((p) => toPrice(p, product)),
    meters: toMeters(row, prices, rel),
    pending_update: toPendingUpdate(row),
  });
}

export function toCustomerSubscription(row: SubscriptionRow, rel: SubscriptionRelations): CustomerSubscriptionOut {
  const product = rel.products.get(row.product_id)!;
  const prices = rel.prices.get(row.id) ?? [];
  return Object.assign(toSubscriptionBase(row), {
    product: Object.assign(toCustomerProduct(product, rel.productRelations.get(product.id)!), {
      organization: toPublicOrganization(rel.organizations.get(row.organization_id)!),
    }),
    prices: prices.map((p) => toPrice(p, product)),
    meters: toMeters(row, prices, rel).map(({ meter, ...m }) =>
      Object.assign(m, { meter: { created_at: meter.created_at, modified_at: meter.modified_at, id: meter.id, name: meter.name } }),
    ),
    pending_update: toPendingUpdate(row),
  });
}

/** The narrowing the customer state view relies on: it shows only active subscriptions. */
export function isActive(row: SubscriptionRow): row is SubscriptionRow & { status: "active" } {
  return row.status === "active";
}

export function toStateSubscription(row: SubscriptionRow & { status: "active" }, rel: SubscriptionRelations): StateSubscriptionOut {
  const {
    customer_id: _c,
    checkout_id: _k,
    customer_cancellation_reason: _r,
    customer_cancellation_comment: _m,
    ended_at: _e,
    recurring_interval_count: _n,
    current_meter_period_start: _ms,
    current_meter_period_end: _me,
    pause_at_period_end: _p,
    paused_at: _pa,
    resumes_at: _ra,
    ...base
  } = toSubscriptionBase(row);
  const prices = rel.prices.get(row.id) ?? [];
  return Object.assign(base, {
    status: row.status,
    metadata: row.metadata,
    custom_field_data: row.custom_field_data,
    meters: toMeters(row, prices, rel).map(({ meter: _meter, ...m }) => m),
    seats: row.seats ?? null,
  });
}
