// Checkout sessions: the merchant creates one from a list of products (first product, its static
// price), prefilled from a customer when given; the merchant and the buyer (by client secret)
// change it while it is open; it expires at expires_at (computed on read, enforced on writes).
// checkout.created / checkout.updated go to the outbox in the writing transaction, which also takes
// an Idempotency-Key and writes its answer (the journal): Stripe Tax is asked between its runs.
import type { OpBody } from "../../generated/handlers.js";
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { customerWithExternalId, liveInOrganization, type CustomerRow } from "../customers/repository.js";
import { randomToken, type OrganizationCaller } from "../kit/auth.js";
import type { AnswerJournal } from "../kit/idempotency.js";
import { invalid, RequestValidationError, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { checkOneCurrency } from "../kit/money.js";
import { emit } from "../kit/outbox.js";
import { applyMetadataFilter, applySorting, listPage, type Page } from "../kit/pagination.js";
import { findById as findOrganization } from "../organizations/repository.js";
import { isPurchasable } from "../products/models.js";
import { findManyWithRelations, type Interval, type ProductRelations, type ProductRow } from "../products/repository.js";
import { priceAmount, priceCurrency } from "../discounts/amounts.js";
import { seatBounds } from "../products/seat-tiers.js";
import { applyChanges, checkEmbedOrigin, toColumns, type BuyerChanges, type MerchantChanges } from "./changes.js";
import { ExpiredCheckoutError, NotOpenCheckout } from "./errors.js";
import { withTaxQuotes, type CheckoutQuotes } from "./tax.js";
import { toCheckout, toCheckoutPublic, type CheckoutOut, type CheckoutPublicOut } from "./models.js";
import {
  effectiveStatus,
  findBySecret,
  findReadable,
  insertWithProducts,
  loadContexts,
  markQuoteShown,
  readable,
  statusSortColumn,
  update as updateCheckoutRow,
  type CheckoutContext,
  type CheckoutRow,
  type CheckoutStatus,
} from "./repository.js";
import { setting } from "../config.js";

/** How long a checkout session stays open (Polar's default: one hour). */
export const CHECKOUT_TTL_MS = setting("CHECKOUT_TTL_SECONDS") * 1000;

export type CheckoutCreateInput = OpBody<"checkouts:create">;

export interface CheckoutListQuery {
  organization_id?: string | string[] | null;
  product_id?: string | string[] | null;
  customer_id?: string | string[] | null;
  external_customer_id?: string | string[] | null;
  status?: CheckoutStatus | CheckoutStatus[] | null;
  query?: string | null;
  page?: number;
  limit?: number;
  sorting?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

export async function contextOf(db: Knex, row: CheckoutRow): Promise<CheckoutContext> {
  return (await loadContexts(db, [row])).get(row.id)!;
}

export async function readCheckout(db: Knex, row: CheckoutRow): Promise<CheckoutOut> {
  return toCheckout(row, await contextOf(db, row));
}

export async function readCheckoutPublic(db: Knex, row: CheckoutRow, ctx?: CheckoutContext): Promise<CheckoutPublicOut> {
  const org = (await findOrganization(db, row.organization_id))!;
  return toCheckoutPublic(row, ctx ?? (await contextOf(db, row)), org);
}

async function customerFor(trx: Knex, organizationId: string, input: CheckoutCreateInput): Promise<CustomerRow | null> {
  const live = () => liveInOrganization(trx, organizationId);
  if (input.customer_id) {
    const row = isUuid(input.customer_id) ? await live().where({ id: input.customer_id }).first() : undefined;
    if (!row) throw invalid(["body", "customer_id"], "Customer does not exist.", "value_error", input.customer_id);
    return row as CustomerRow;
  }
  if (input.external_customer_id) return ((await live().where({ external_id: input.external_customer_id }).first()) as CustomerRow) ?? null;
  return null;
}

type LoadedProduct = { row: ProductRow; rel: ProductRelations };

/**
 * The products a merchant asks a checkout for: each one of the organization's and purchasable
 * (not archived, not a draft), loaded with its relations in the same round trip.
 */
async function loadRequestedProducts(trx: Knex, organizationId: string, ids: string[], loc: (string | number)[]): Promise<LoadedProduct[]> {
  if (ids.length === 0) throw invalid(loc, "List should have at least 1 item after validation, not 0", "too_short");
  const unique = [...new Set(ids)];
  const found = unique.every(isUuid)
    ? (await findManyWithRelations(trx, unique)).filter((p) => p.row.organization_id === organizationId && isPurchasable(p.row))
    : [];
  const missing = ids.findIndex((id) => !found.some((p) => p.row.id === id));
  if (missing >= 0) throw invalid([...loc, missing], "Product does not exist, is archived or is a draft.", "value_error", ids[missing]);
  checkOneCurrency(
    found.flatMap((p) => p.relations.prices.map((price) => price.price_currency)),
    loc,
  );
  return found.map(({ row, relations }) => ({ row, rel: relations }));
}

/** Inserts a new open checkout over `ordered` (the first product and price selected), then applies `changes`. */
async function insertCheckout(
  trx: Knex,
  organizationId: string,
  ordered: LoadedProduct[],
  changes: MerchantChanges,
  extra: Partial<CheckoutRow> & { priceId?: string | null },
  quotes: CheckoutQuotes,
): Promise<{ row: CheckoutRow; ctx: CheckoutContext }> {
  const first = extra.priceId ? ordered.find((p) => p.rel.prices.some((pr) => pr.id === extra.priceId))! : ordered[0];
  const price = first.rel.prices.find((p) => p.id === extra.priceId) ?? first.rel.prices.find((p) => p.amount_type !== "metered_unit");
  if (!price) throw invalid(["body", "products"], "Product has no price.", "value_error");
  const now = new Date();
  const { priceId: _priceId, ...rest } = extra;
  const draft: CheckoutRow = {
    id: randomUUID(),
    created_at: now,
    modified_at: null,
    organization_id: organizationId,
    client_secret: randomToken("polar_c_"),
    payment_processor: "stripe",
    status: "open",
    expires_at: new Date(now.getTime() + CHECKOUT_TTL_MS),
    success_url: null,
    return_url: null,
    embed_origin: null,
    amount: priceAmount(price, null),
    seats: price.seat_tiers ? seatBounds(price.seat_tiers).minimum : null,
    discount_amount: 0,
    tax_amount: 0,
    total_amount: priceAmount(price, null),
    shown_total_amount: priceAmount(price, null),
    currency: priceCurrency(price),
    product_id: first.row.id,
    product_price_id: price.id,
    discount_id: null,
    discount_locked: false,
    allow_discount_codes: true,
    require_billing_address: false,
    customer_id: null,
    is_business_customer: false,
    customer_name: null,
    customer_email: null,
    customer_ip_address: null,
    customer_billing_name: null,
    customer_billing_address: null,
    customer_tax_id: null,
    tax_calculation: null,
    external_customer_id: null,
    subscription_id: null,
    checkout_link_id: null,
    payment_processor_metadata: {},
    metadata: {},
    customer_metadata: {},
    custom_field_data: {},
    payment_ref: null,
    confirmation_token_id: null,
    confirmed_at: null,
    confirm_lease_id: null,
    confirm_lease_until: null,
    allow_trial: true,
    trial_interval: null,
    trial_interval_count: null,
    trial_end: null,
    payment_method_type: null,
    ...rest,
  };
  const ctx: CheckoutContext = { products: ordered, product: first, price, discount: null, discountProductIds: [] };
  const applied = await applyChanges(trx, draft, ctx, changes, "merchant", quotes);
  applied.row = shown(applied.row);
  await insertWithProducts(
    trx,
    Object.assign(toColumns(applied.row), {
      id: draft.id,
      created_at: now,
      organization_id: organizationId,
      client_secret: draft.client_secret,
      expires_at: draft.expires_at,
      checkout_link_id: draft.checkout_link_id,
    }),
    ordered.map((p) => p.row.id),
  );
  return applied;
}

export async function createCheckout(
  db: Knex,
  caller: OrganizationCaller,
  input: CheckoutCreateInput,
  journal: AnswerJournal | null = null,
): Promise<CheckoutOut> {
  return withTaxQuotes(db, async (trx, quotes) => {
    await journal?.begin(trx);
    const products = await loadRequestedProducts(trx, caller.organizationId, input.products, ["body", "products"]);
    if (input.subscription_id)
      throw invalid(["body", "subscription_id"], "Subscription does not exist.", "value_error", input.subscription_id);
    const customer = await customerFor(trx, caller.organizationId, input);
    const { products: _p, customer_id: _c, external_customer_id: _e, subscription_id: _s, ...changes } = input;
    // Prefill from the customer; what the merchant gives wins.
    const prefill: MerchantChanges = customer
      ? {
          customer_email: customer.email,
          customer_name: customer.name,
          customer_billing_name: customer.billing_name,
          customer_billing_address: customer.billing_address,
        }
      : {};
    const { row, ctx } = await insertCheckout(
      trx,
      caller.organizationId,
      products,
      Object.assign({}, prefill, stripUndefined(changes)),
      {
        customer_id: customer?.id ?? null,
        customer_tax_id: customer?.tax_id ?? null,
        external_customer_id: customer?.external_id ?? input.external_customer_id ?? null,
        allow_discount_codes: input.allow_discount_codes ?? true,
        require_billing_address: input.require_billing_address ?? false,
        is_business_customer: input.is_business_customer ?? false,
      },
      quotes,
    );
    const out = toCheckout(row, ctx);
    await emit(trx, caller.organizationId, "checkout.created", out);
    await journal?.settle(trx, 201, out);
    return out;
  });
}

function validOrigin(origin: string | null | undefined): string | null {
  try {
    return checkEmbedOrigin(origin);
  } catch {
    return null;
  }
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** What a checkout opened from a checkout link takes of the link (server/checkout-links/routes.ts passes its row). */
export interface LinkSource {
  id: string;
  organization_id: string;
  success_url: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  discount_id: string | null;
  product_price_id: string | null;
  metadata: Record<string, string | number | boolean>;
  return_url: string | null;
  /** A trial for the checkouts the link opens, over their product's. */
  trial_interval: Interval | null;
  trial_interval_count: number | null;
}

/**
 * A fresh checkout from a checkout link (its `url`); a link's discount that no longer applies is
 * ignored, and so is an embed origin that is not an origin.
 */
export async function createCheckoutFromLink(
  db: Knex,
  link: LinkSource,
  productIds: string[],
  opts: { embedOrigin?: string | null } = {},
): Promise<CheckoutRow> {
  return withTaxQuotes(db, async (trx, quotes) => {
    const live = (await findManyWithRelations(trx, productIds))
      .filter((p) => isPurchasable(p.row))
      .map(({ row, relations }) => ({ row, rel: relations }));
    if (live.length === 0) throw new ResourceNotFound("This checkout link has no available product.");
    const base = {
      success_url: link.success_url,
      return_url: link.return_url,
      metadata: link.metadata,
      embed_origin: validOrigin(opts.embedOrigin),
      trial_interval: link.trial_interval,
      trial_interval_count: link.trial_interval_count,
    };
    let applied;
    try {
      applied = await insertCheckout(
        trx,
        link.organization_id,
        live,
        Object.assign({}, base, { discount_id: link.discount_id }),
        {
          checkout_link_id: link.id,
          allow_discount_codes: link.allow_discount_codes,
          require_billing_address: link.require_billing_address,
          priceId: link.product_price_id,
        },
        quotes,
      );
    } catch (err) {
      if (!(err instanceof RequestValidationError)) throw err;
      applied = await insertCheckout(
        trx,
        link.organization_id,
        live,
        base,
        {
          checkout_link_id: link.id,
          allow_discount_codes: link.allow_discount_codes,
          require_billing_address: link.require_billing_address,
          priceId: link.product_price_id,
        },
        quotes,
      );
    }
    await emit(trx, link.organization_id, "checkout.created", toCheckout(applied.row, applied.ctx));
    return applied.row;
  });
}

/** The row as answered to its caller: the total it shows is the one a confirm may charge. */
function shown(row: CheckoutRow): CheckoutRow {
  return Object.assign({}, row, { shown_total_amount: row.total_amount });
}

export async function getCheckout(db: Knex, caller: OrganizationCaller, id: string): Promise<CheckoutOut> {
  const row = await findReadable(db, caller, id);
  if (!row) throw new ResourceNotFound("Checkout not found.");
  return readCheckout(db, row);
}

export async function listCheckouts(db: Knex, caller: OrganizationCaller, query: CheckoutListQuery): Promise<Page<CheckoutOut>> {
  const q = readable(db, caller).select("checkouts.*");
  const orgs = asList(query.organization_id);
  if (orgs.length) q.whereIn("checkouts.organization_id", orgs.filter(isUuid));
  const products = asList(query.product_id);
  if (products.length) q.whereIn("checkouts.product_id", products.filter(isUuid));
  const customers = asList(query.customer_id);
  if (customers.length) q.whereIn("checkouts.customer_id", customers.filter(isUuid));
  const external = asList(query.external_customer_id);
  if (external.length) q.whereExists(customerWithExternalId(db, "checkouts.customer_id", external));
  const statuses = asList(query.status);
  if (statuses.length) {
    q.where((w) => {
      for (const s of statuses) {
        if (s === "expired") w.orWhere((e) => e.where("checkouts.status", "open").where("checkouts.expires_at", "<=", db.fn.now()));
        else if (s === "open") w.orWhere((e) => e.where("checkouts.status", "open").where("checkouts.expires_at", ">", db.fn.now()));
        else w.orWhere("checkouts.status", s);
      }
    });
  }
  if (query.query) q.whereRaw("checkouts.customer_email ilike ?", [`%${query.query.replace(/[\\%_]/g, "\\$&")}%`]);
  applyMetadataFilter(q, "checkouts.metadata", query.metadata);
  applySorting(
    q,
    query.sorting,
    {
      created_at: "checkouts.created_at",
      expires_at: "checkouts.expires_at",
      status: statusSortColumn(db),
    },
    ["-created_at"],
    "checkouts.id",
  );
  return listPage(q, query, async (rows: CheckoutRow[]) => {
    const ctxs = await loadContexts(db, rows);
    return rows.map((r) => toCheckout(r, ctxs.get(r.id)!));
  });
}

/** Writes the changed row and its checkout.updated event. */
export async function saveCheckout(trx: Knex.Transaction, row: CheckoutRow, ctx: CheckoutContext): Promise<CheckoutRow> {
  const saved = await updateCheckoutRow(trx, row.id, toColumns(row));
  await emit(trx, row.organization_id, "checkout.updated", toCheckout(saved, ctx));
  return saved;
}

export function assertOpen(row: CheckoutRow, expired: "gone" | "not_open"): void {
  const status = effectiveStatus(row);
  if (status === "expired") {
    if (expired === "gone") throw new ExpiredCheckoutError();
    throw new NotOpenCheckout("This checkout has expired.");
  }
  if (status !== "open") throw new NotOpenCheckout(`This checkout is ${status}.`);
}

export async function updateCheckout(
  db: Knex,
  caller: OrganizationCaller,
  id: string,
  input: MerchantChanges,
  journal: AnswerJournal | null = null,
): Promise<CheckoutOut> {
  return withTaxQuotes(db, async (trx, quotes) => {
    await journal?.begin(trx);
    const row = await findReadable(trx, caller, id, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Checkout not found.");
    assertOpen(row, "not_open");
    const applied = await applyChanges(trx, row, await contextOf(trx, row), input, "merchant", quotes);
    const saved = await saveCheckout(trx, shown(applied.row), applied.ctx);
    const out = toCheckout(saved, applied.ctx);
    await journal?.settle(trx, 200, out);
    return out;
  });
}

export async function clientGetCheckout(db: Knex, clientSecret: string): Promise<CheckoutPublicOut> {
  const row = await findBySecret(db, clientSecret);
  if (!row) throw new ResourceNotFound("Checkout not found.");
  if (effectiveStatus(row) === "expired") throw new ExpiredCheckoutError();
  await markQuoteShown(db, row);
  return readCheckoutPublic(db, row);
}

export async function clientUpdateCheckout(
  db: Knex,
  clientSecret: string,
  input: BuyerChanges,
  journal: AnswerJournal | null = null,
): Promise<CheckoutPublicOut> {
  return withTaxQuotes(db, async (trx, quotes) => {
    await journal?.begin(trx);
    const row = await findBySecret(trx, clientSecret, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Checkout not found.");
    assertOpen(row, "gone");
    const applied = await applyChanges(trx, row, await contextOf(trx, row), input, "buyer", quotes);
    const saved = await saveCheckout(trx, shown(applied.row), applied.ctx);
    const out = await readCheckoutPublic(trx, saved, applied.ctx);
    await journal?.settle(trx, 200, out);
    return out;
  });
}
