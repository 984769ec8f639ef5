// Checkout queries: the merchant's (scoped to its organization) and the buyer's (by client
// secret), and the batch loading of what a Checkout carries (products, price, discount).
import type { Knex } from "knex";
import { applyFilters, type BucketRow, type Report } from "../kit/report.js";
import { truncIn } from "../kit/timezones.js";
import type { Address } from "../customers/address.js";
import type { TaxId } from "../customers/tax-id.js";
import type { TaxCalculation } from "../tax/models.js";
import { customerWithEmails } from "../customers/repository.js";
import { byIds as discountsByIds, productLinks, type DiscountRow } from "../discounts/repository.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { isUuid } from "../kit/ids.js";
import {
  findManyWithRelations,
  pricesByIds,
  type Interval,
  type PriceRow,
  type ProductRelations,
  type ProductRow,
} from "../products/repository.js";

export type CheckoutStatus = "open" | "expired" | "confirmed" | "succeeded" | "failed";

export interface CheckoutRow {
  id: string;
  created_at: Date;
  modified_at: Date | null;
  organization_id: string;
  client_secret: string;
  payment_processor: "stripe";
  status: Exclude<CheckoutStatus, "expired">;
  expires_at: Date;
  success_url: string | null;
  /** The checkout's back button. */
  return_url: string | null;
  embed_origin: string | null;
  amount: number;
  /** The seats a seat-based price buys (the amount follows them); null for other prices. */
  seats: number | null;
  /** The quote: what the last write computed, what views show, what a confirm may charge. */
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
  /** The total of the last view the buyer was given: the only total a confirm charges. */
  shown_total_amount: number;
  currency: string;
  product_id: string;
  product_price_id: string;
  discount_id: string | null;
  discount_locked: boolean;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  customer_id: string | null;
  is_business_customer: boolean;
  customer_name: string | null;
  customer_email: string | null;
  customer_ip_address: string | null;
  customer_billing_name: string | null;
  customer_billing_address: Address | null;
  customer_tax_id: TaxId | null;
  /** The tax calculation of the quote (checkouts/tax.ts); null when no tax is computed. */
  tax_calculation: TaxCalculation | null;
  external_customer_id: string | null;
  subscription_id: string | null;
  checkout_link_id: string | null;
  payment_processor_metadata: Record<string, string>;
  metadata: Record<string, string | number | boolean>;
  customer_metadata: Record<string, string | number | boolean>;
  custom_field_data: Record<string, string | number | boolean | null>;
  payment_ref: string | null;
  /** Kept by the confirm's claim, so that its charge step can be run again (server/checkouts/recover.ts). */
  confirmation_token_id: string | null;
  confirmed_at: Date | null;
  /** The confirm (or recovery) that may write the outcome of a confirmed checkout, and until when it is known alive (./lease.ts). */
  confirm_lease_id: string | null;
  confirm_lease_until: Date | null;
  /** False turns off any trial, the product's or the checkout's own. */
  allow_trial: boolean;
  /** The checkout's own trial, over the product's (both set or neither). */
  trial_interval: Interval | null;
  trial_interval_count: number | null;
  /** When the trial quoted by the last write ends; null when the checkout has no trial. */
  trial_end: Date | null;
  /** The payment method type the buyer chose in the form (`card`, `upi`…); null while none is, or no payment form is needed. */
  payment_method_type: string | null;
}

/** Everything a checkout's wire shape and rules need besides its row. */
export interface CheckoutContext {
  products: { row: ProductRow; rel: ProductRelations }[];
  product: { row: ProductRow; rel: ProductRelations };
  price: PriceRow;
  discount: DiscountRow | null;
  discountProductIds: string[];
}

/** Open past expires_at reads as expired; the stored status is only ever written forward. */
export function effectiveStatus(row: Pick<CheckoutRow, "status" | "expires_at">, now = new Date()): CheckoutStatus {
  if (row.status === "open" && new Date(row.expires_at).getTime() <= now.getTime()) return "expired";
  return row.status;
}

export function readable(db: Knex, caller: OrganizationCaller): Knex.QueryBuilder {
  return db("checkouts").where("checkouts.organization_id", caller.organizationId);
}

export async function findReadable(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CheckoutRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = readable(db, caller).where("checkouts.id", id).first("checkouts.*");
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CheckoutRow | undefined>;
}

export async function findBySecret(db: Knex, clientSecret: string, opts: { forUpdate?: boolean } = {}): Promise<CheckoutRow | undefined> {
  const q = db("checkouts").where({ client_secret: clientSecret }).first();
  return (opts.forUpdate ? q.forUpdate() : q) as Promise<CheckoutRow | undefined>;
}

/**
 * The buyer is being shown the checkout's quote (`row`, read without a lock): its total becomes
 * the one a confirm may charge, unless the row's total moved since it was read (a refused confirm
 * saved a new one): the buyer sees the old total, so the new one is not marked shown.
 */
export async function markQuoteShown(db: Knex, row: CheckoutRow): Promise<void> {
  if (Number(row.shown_total_amount) === Number(row.total_amount)) return;
  await db("checkouts")
    .where({ id: row.id, status: "open", total_amount: row.total_amount })
    .update({ shown_total_amount: row.total_amount });
}

/** A new checkout row and its product list, in one statement. */
export async function insertWithProducts(db: Knex, columns: Record<string, unknown> & { id: string }, productIds: string[]): Promise<void> {
  const links = productIds.map((product_id, order) => ({ checkout_id: columns.id, product_id, order }));
  await db.raw(`with inserted as (?) ?`, [db("checkouts").insert(columns), db("checkout_products").insert(links)]);
}

/** The context of each checkout, in a fixed number of queries whatever their number. */
export async function loadContexts(db: Knex, rows: CheckoutRow[]): Promise<Map<string, CheckoutContext>> {
  const out = new Map<string, CheckoutContext>();
  if (rows.length === 0) return out;
  const links: { checkout_id: string; product_id: string }[] = await db("checkout_products")
    .whereIn(
      "checkout_id",
      rows.map((r) => r.id),
    )
    .orderBy("order");
  const productIds = [...new Set([...links.map((l) => l.product_id), ...rows.map((r) => r.product_id)])];
  const discountIds = [...new Set(rows.map((r) => r.discount_id).filter((d): d is string => d !== null))];
  const [products, discounts, discountProducts] = await Promise.all([
    findManyWithRelations(db, productIds),
    discountIds.length ? discountsByIds(db, discountIds) : Promise.resolve([] as DiscountRow[]),
    discountIds.length ? productLinks(db, discountIds) : Promise.resolve([] as { discount_id: string; product_id: string }[]),
  ]);
  const productById = new Map(products.map((p) => [p.row.id, { row: p.row, rel: p.relations }]));
  // The selected price is normally one of its product's live prices, loaded above; only an
  // archived one needs its own query.
  const livePrices = new Map(products.flatMap((p) => p.relations.prices.map((price) => [price.id, price] as const)));
  const archivedIds = [...new Set(rows.map((r) => r.product_price_id).filter((id) => !livePrices.has(id)))];
  const prices: PriceRow[] = [...livePrices.values()];
  if (archivedIds.length) prices.push(...(await pricesByIds(db, archivedIds)));
  for (const row of rows) {
    const ids = links.filter((l) => l.checkout_id === row.id).map((l) => l.product_id);
    const discount = discounts.find((d) => d.id === row.discount_id) ?? null;
    out.set(row.id, {
      products: ids.map((id) => productById.get(id)!),
      product: productById.get(row.product_id)!,
      price: prices.find((p) => p.id === row.product_price_id)!,
      discount,
      discountProductIds: discountProducts.filter((d) => d.discount_id === row.discount_id).map((d) => d.product_id),
    });
  }
  return out;
}

export async function findByIdForUpdate(db: Knex, id: string): Promise<CheckoutRow | undefined> {
  return (await db("checkouts").where({ id }).forUpdate().first()) as CheckoutRow | undefined;
}

/** Writes the checkout's columns; answers the row as saved. */
export async function update(db: Knex, id: string, columns: Record<string, unknown>): Promise<CheckoutRow> {
  const [saved] = await db("checkouts")
    .where({ id })
    .update(Object.assign({}, columns, { modified_at: new Date() }))
    .returning("*");
  return saved as CheckoutRow;
}

/**
 * Confirmed checkouts whose lease lapsed (their confirm's process stopped renewing it) and that
 * wait on no buyer action; one claimed without a lease lapses 2 minutes after its claim.
 */
function lapsed(q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q
    .where({ status: "confirmed" })
    .whereRaw("coalesce(confirm_lease_until, confirmed_at + interval '2 minutes') < now()")
    .whereRaw("coalesce(payment_processor_metadata->>'intent_status', '') <> 'requires_action'");
}

/** The lease columns: held by `lease` for `ms` from now, by the database's clock. */
const leaseColumns = (db: Knex, lease: string, ms: number) => ({
  confirm_lease_id: lease,
  confirm_lease_until: db.raw("now() + ? * interval '1 millisecond'", [ms]),
});

/** Confirmed checkouts whose lease lapsed, oldest first. */
export function lapsedConfirms(db: Knex, limit: number): Promise<CheckoutRow[]> {
  return lapsed(db("checkouts")).orderBy("confirmed_at").limit(limit);
}

/** Gives a claimed checkout its lease. */
export async function leaseConfirm(db: Knex, id: string, lease: string, ms: number): Promise<void> {
  await db("checkouts")
    .where({ id })
    .update(leaseColumns(db, lease, ms));
}

/** Takes a lapsed checkout over with a new lease, in one statement (its row locked); undefined when it no longer lapsed. */
export async function takeLapsedConfirm(db: Knex, id: string, lease: string, ms: number): Promise<CheckoutRow | undefined> {
  const [row] = await lapsed(db("checkouts").where({ id }))
    .update(leaseColumns(db, lease, ms))
    .returning("*");
  return row as CheckoutRow | undefined;
}

/** Extends a lease its holder still has; false once it lapsed or passed to another (it is not renewed then). */
export async function renewConfirmLease(db: Knex, id: string, lease: string, ms: number): Promise<boolean> {
  const renewed = await db("checkouts")
    .where({ id, status: "confirmed", confirm_lease_id: lease })
    .whereRaw("confirm_lease_until > now()")
    .update({ confirm_lease_until: leaseColumns(db, lease, ms).confirm_lease_until });
  return renewed > 0;
}

/** Ends the lease now: its holder lost the processor's answer, and the recovery should ask again at once. */
export async function endConfirmLease(db: Knex, id: string, lease: string): Promise<void> {
  await db("checkouts").where({ id, status: "confirmed", confirm_lease_id: lease }).update({ confirm_lease_until: db.fn.now() });
}

/** Confirmed checkouts whose lease lapsed, waiting for the recovery (an operators' gauge, server/observability/metrics.ts). */
export async function countAwaitingRecovery(db: Knex): Promise<number> {
  const row = await lapsed(db("checkouts")).count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

/** The status a list sorts by: an open checkout past its expiry sorts as expired. */
export function statusSortColumn(db: Knex): Knex.Raw {
  return db.raw("(case when checkouts.status = 'open' and checkouts.expires_at <= now() then 'expired' else checkouts.status end)");
}

/** A subquery for whereExists: the checkout (`checkoutIdColumn`) is one of these customers'. */
export function checkoutOfCustomers(db: Knex, checkoutIdColumn: string, customerIds: string[]): Knex.QueryBuilder {
  return db("checkouts").whereRaw(`checkouts.id = ${checkoutIdColumn}`).whereIn("checkouts.customer_id", customerIds);
}

/** A subquery for whereExists: the checkout (`checkoutIdColumn`) was paid by one of these lowercased emails, as typed or as its customer's. */
export function checkoutOfPayerEmails(db: Knex, checkoutIdColumn: string, emails: string[]): Knex.QueryBuilder {
  return db("checkouts")
    .whereRaw(`checkouts.id = ${checkoutIdColumn}`)
    .where((c) =>
      c
        .whereRaw("lower(checkouts.customer_email) = any(?)", [emails])
        .orWhereExists(customerWithEmails(db, "checkouts.customer_id", emails)),
    );
}

/**
 * How many other checkouts redeemed the discount (confirmed, or paid) for this buyer: their
 * customer, or one of these lowercased emails, as typed or as the checkout's customer's.
 */
export async function buyerRedemptions(
  db: Knex,
  discountId: string,
  exceptCheckoutId: string,
  buyer: { customerId: string | null; emails: string[] },
): Promise<number> {
  if (!buyer.customerId && buyer.emails.length === 0) return 0;
  const row = await db("checkouts")
    .where("checkouts.discount_id", discountId)
    .whereNot("checkouts.id", exceptCheckoutId)
    .whereIn("checkouts.status", ["confirmed", "succeeded"])
    .where((w) => {
      if (buyer.customerId) w.orWhere("checkouts.customer_id", buyer.customerId);
      if (buyer.emails.length) {
        w.orWhereRaw("lower(checkouts.customer_email) = any(?)", [buyer.emails]).orWhereExists(
          customerWithEmails(db, "checkouts.customer_id", buyer.emails),
        );
      }
    })
    .count({ n: "*" })
    .first();
  return Number(row?.n ?? 0);
}

/**
 * The metrics report's checkouts (on server/kit/report.ts's range, bucketing and filters): those
 * created in the range, and the succeeded ones, per bucket; a product filter matches a checkout's
 * products too.
 */
export async function checkoutBuckets(db: Knex, r: Report): Promise<BucketRow[]> {
  const trunc = truncIn(r.unit, r.timeZone);
  const checkouts = db("checkouts as c")
    .join("products as p", "p.id", "c.product_id")
    .where("c.organization_id", r.organizationId)
    .where("c.created_at", ">=", r.rangeStart)
    .where("c.created_at", "<", r.rangeEnd)
    .select(
      db.raw(`${trunc("c.created_at")} as bucket`),
      db.raw("count(*)::float8 as checkouts"),
      db.raw("(count(*) filter (where c.status = 'succeeded'))::float8 as succeeded_checkouts"),
    )
    .groupByRaw("1");
  applyFilters(checkouts, "c", r.filters, (q, ids) =>
    q.where((w) =>
      w
        .whereIn("c.product_id", ids)
        .orWhereExists(db("checkout_products as cp").whereRaw("cp.checkout_id = c.id").whereIn("cp.product_id", ids)),
    ),
  );
  return checkouts;
}
