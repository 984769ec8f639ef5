// Subscription reads (merchant and portal), lists with every filter and sort key, the CSV export,
// and the creation of a subscription by a confirmed checkout of a recurring product.
import type { Knex } from "knex";
import { findReadable as findReadableCustomer, findTestClockOf } from "../customers/repository.js";
import {
  defaultStaticPrice,
  findReadable as findReadableProduct,
  meteredPriceIds,
  meterIdsOfPrices,
  unarchivedPriceIds,
} from "../products/repository.js";
import { isFreePrice } from "../products/models.js";
import { findOrganization } from "../organizations/repository.js";
import { checkMetadata } from "../kit/metadata.js";
import type { OrganizationCaller } from "../kit/auth.js";
import type { components } from "../../generated/types.js";
import { scheduleBenefitGrants } from "../benefit-grants/service.js";
import { ensureCustomerMeters } from "../customer-meters/service.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { checkTimeZone, zonedIso } from "../kit/timezones.js";
import { csvFile } from "../kit/csv.js";
import type { PriceRow, ProductRow } from "../products/repository.js";
import { clockNow } from "../test-clocks/repository.js";
import { emitSubscription, type SubscriptionEventType } from "./events.js";
import { toCustomerSubscription, toSubscription, type CustomerSubscriptionOut, type SubscriptionOut } from "./models.js";
import { addIntervals, periodBounds, type RecurringInterval } from "./periods.js";
import {
  filterSubscriptions,
  findReadable,
  insertSubscription,
  insertSubscriptionPrices,
  LIVE_STATUSES,
  loadSubscriptionRelations,
  subscriptionSorts,
  type SubscriptionListQuery,
  type SubscriptionRow,
  type SubscriptionScope,
  type SubscriptionStatus,
} from "./repository.js";
import { pokeAfterCommit } from "../workflows-door.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";
import { jsonb } from "../kit/db.js";

export async function readSubscription(db: Knex, row: SubscriptionRow): Promise<SubscriptionOut> {
  return toSubscription(row, await loadSubscriptionRelations(db, [row]));
}

export async function readCustomerSubscription(db: Knex, row: SubscriptionRow): Promise<CustomerSubscriptionOut> {
  return toCustomerSubscription(row, await loadSubscriptionRelations(db, [row]));
}

export async function getSubscription(db: Knex, scope: SubscriptionScope, id: string): Promise<SubscriptionOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Subscription not found.");
  return readSubscription(db, row);
}

export async function getCustomerSubscription(db: Knex, scope: SubscriptionScope, id: string): Promise<CustomerSubscriptionOut> {
  const row = await findReadable(db, scope, id);
  if (!row) throw new ResourceNotFound("Subscription not found.");
  return readCustomerSubscription(db, row);
}

export async function listSubscriptions(db: Knex, scope: SubscriptionScope, query: SubscriptionListQuery): Promise<Page<SubscriptionOut>> {
  const q = filterSubscriptions(db, scope, query);
  applySorting(q, query.sorting, subscriptionSorts(db), ["-started_at"], "subscriptions.id");
  return listPage(q, query, async (rows: SubscriptionRow[]) => {
    const rel = await loadSubscriptionRelations(db, rows);
    return rows.map((r) => toSubscription(r, rel));
  });
}

export async function listCustomerSubscriptions(
  db: Knex,
  scope: SubscriptionScope,
  query: SubscriptionListQuery,
): Promise<Page<CustomerSubscriptionOut>> {
  const q = filterSubscriptions(db, scope, query);
  applySorting(q, query.sorting, subscriptionSorts(db), ["-started_at"], "subscriptions.id");
  return listPage(q, query, async (rows: SubscriptionRow[]) => {
    const rel = await loadSubscriptionRelations(db, rows);
    return rows.map((r) => toCustomerSubscription(r, rel));
  });
}

/** Every subscription of the organization (optionally filtered) as CSV, oldest first. */
export async function exportSubscriptions(
  db: Knex,
  scope: SubscriptionScope,
  query: { organization_id?: string | string[] | null; timezone?: string },
): Promise<string> {
  // Datetimes as the zone's wall time (the 1.x client always asks, UTC unless told).
  const tz = await checkTimeZone(db, query.timezone, ["query", "timezone"]);
  const q = filterSubscriptions(db, scope, { organization_id: query.organization_id })
    .join("customers", "customers.id", "subscriptions.customer_id")
    .join("products", "products.id", "subscriptions.product_id")
    .clearSelect()
    .select(
      "subscriptions.id",
      "customers.email",
      "subscriptions.created_at",
      "subscriptions.status",
      "products.name as product_name",
      "subscriptions.amount",
      "subscriptions.currency",
      "subscriptions.recurring_interval",
      "subscriptions.current_period_end",
      "subscriptions.cancel_at_period_end",
    )
    .orderBy([{ column: "subscriptions.created_at" }, { column: "subscriptions.id" }]);
  const rows = (await q) as {
    id: string;
    email: string;
    created_at: Date;
    status: SubscriptionStatus;
    product_name: string;
    amount: number;
    currency: string;
    recurring_interval: string;
    current_period_end: Date | null;
    cancel_at_period_end: boolean;
  }[];
  const header = [
    "Email",
    "Created At",
    "Active",
    "Status",
    "Product",
    "Price",
    "Currency",
    "Interval",
    "Current Period End",
    "Cancel At Period End",
    "ID",
  ];
  return csvFile(
    header,
    rows.map((r) => [
      r.email,
      zonedIso(tz, r.created_at),
      LIVE_STATUSES.includes(r.status),
      r.status,
      r.product_name,
      Number(r.amount),
      r.currency,
      r.recurring_interval,
      r.current_period_end ? zonedIso(tz, r.current_period_end) : null,
      r.cancel_at_period_end,
      r.id,
    ]),
  );
}

export interface CheckoutSubscriptionInput {
  organizationId: string;
  customerId: string;
  product: ProductRow;
  price: PriceRow;
  amount: number;
  currency: string;
  discountId: string | null;
  /** The checkout that started it; null for one the merchant created through the API. */
  checkoutId: string | null;
  paymentMethodId: string | null;
  metadata: Record<string, string | number | boolean>;
  /** The checkout's custom field values (custom-fields/data.ts checked them). */
  customFieldData: SubscriptionRow["custom_field_data"];
  /** A trial to start with: nothing is charged until it ends. */
  trial: { interval: RecurringInterval; count: number } | null;
  /** The seats a seat-based price bought; null otherwise. */
  seats?: number | null;
  /** Webhooks after subscription.created (and .active): the API's create adds subscription.updated, as Polar does. */
  alsoEmit?: SubscriptionEventType[];
}

/**
 * The subscription a confirmed checkout of a recurring product starts, inside completion's
 * transaction: from now (the customer's test clock's now, when bound to one), its benefits
 * granted; the lifecycle workflow is started once this commits. Without a trial it is active,
 * its first period anchored now (subscription.created and subscription.active). With one it is
 * trialing: the trial is its current period, its billing periods are anchored at the trial's end,
 * where the first renewal charges the price and makes it active (subscription.created now).
 */
export async function createSubscriptionForCheckout(
  uow: UnitOfWork,
  trx: Knex.Transaction,
  input: CheckoutSubscriptionInput,
): Promise<SubscriptionRow> {
  const customer = await findTestClockOf(trx, input.customerId);
  const now = await clockNow(trx, customer?.test_clock_id);
  const interval = input.product.recurring_interval!;
  const count = input.product.recurring_interval_count;
  const trialEnd = input.trial ? addIntervals(now, input.trial.interval, input.trial.count) : null;
  // A trial is a lead-in period (index -1) ending where period 0 starts.
  const first = trialEnd ? { start: now, end: trialEnd } : periodBounds(now, interval, count, 0);
  const prices = await unarchivedPriceIds(trx, input.product.id);
  const priceIds = [input.price.id, ...prices.filter((id) => id !== input.price.id)];
  const row = await insertSubscription(trx, {
    organization_id: input.organizationId,
    customer_id: input.customerId,
    product_id: input.product.id,
    discount_id: input.discountId,
    discount_applied_at: input.discountId ? now : null,
    checkout_id: input.checkoutId,
    status: trialEnd ? "trialing" : "active",
    amount: input.amount,
    currency: input.currency,
    seats: input.seats ?? null,
    recurring_interval: interval,
    recurring_interval_count: count,
    billing_anchor: trialEnd ?? now,
    period_index: trialEnd ? -1 : 0,
    current_period_start: first.start,
    current_period_end: first.end,
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    started_at: now,
    metadata: jsonb(trx, input.metadata ?? {}),
    custom_field_data: jsonb(trx, input.customFieldData ?? {}),
    payment_method_id: input.paymentMethodId,
    test_clock_id: customer?.test_clock_id ?? null,
  });
  // The chosen price, then the product's metered prices (billed per use at each renewal).
  const metered = new Set(await meteredPriceIds(trx, priceIds));
  const kept = priceIds.filter((id) => id === input.price.id || metered.has(id));
  await insertSubscriptionPrices(trx, row.id, kept);
  // The customer sees the metered prices' meters from the start, before any usage.
  if (metered.size) {
    const meterIds = await meterIdsOfPrices(trx, [...metered]);
    await ensureCustomerMeters(trx, input.organizationId, input.customerId, meterIds);
  }
  await emitSubscription(trx, row as SubscriptionRow, [
    ...(trialEnd ? ["subscription.created" as const] : (["subscription.created", "subscription.active"] as const)),
    ...(input.alsoEmit ?? []),
  ]);
  await scheduleBenefitGrants(trx, {
    organizationId: input.organizationId,
    customerId: input.customerId,
    productId: input.product.id,
    subscriptionId: row.id,
  });
  pokeAfterCommit(uow, trx, [row.id]);
  return row as SubscriptionRow;
}

export type SubscriptionCreateBody = components["schemas"]["SubscriptionCreate"];

/**
 * A subscription the merchant starts without a checkout (`subscriptions:create`): only to a free
 * recurring product, as Polar allows, for a customer of the organization. No order is made and no
 * email sent; its benefits are granted and its lifecycle starts as a checkout's would.
 */
export async function createSubscription(
  uow: UnitOfWork,
  caller: OrganizationCaller,
  body: SubscriptionCreateBody,
): Promise<SubscriptionRow> {
  const metadata = checkMetadata(body.metadata);
  return uow.db.transaction(async (trx) => {
    const productError = (msg: string) => invalid(["body", "product_id"], msg, "value_error", body.product_id);
    const product = await findReadableProduct(trx, caller, body.product_id);
    if (!product) throw productError("Product does not exist.");
    if (!product.recurring_interval) throw productError("Product is not a recurring product.");
    const price = await defaultStaticPrice(trx, product.id);
    if (!price || !isFreePrice(price)) {
      throw productError("Product is not free. The customer should go through a checkout to create a paid subscription.");
    }
    const key = "customer_id" in body ? { id: body.customer_id } : { externalId: body.external_customer_id };
    const customer = await findReadableCustomer(trx, caller, key);
    if (!customer) {
      const [field, value] = "id" in key ? ["customer_id", key.id] : ["external_customer_id", key.externalId];
      throw invalid(["body", field], "Customer does not exist.", "value_error", value);
    }
    const organization = await findOrganization(trx, caller.organizationId);
    return createSubscriptionForCheckout(uow, trx, {
      organizationId: caller.organizationId,
      customerId: customer.id,
      product,
      price,
      amount: 0,
      currency: organization?.default_presentment_currency ?? "usd",
      discountId: null,
      checkoutId: null,
      paymentMethodId: null,
      metadata,
      customFieldData: {},
      trial: null,
      alsoEmit: ["subscription.updated"],
    });
  });
}
