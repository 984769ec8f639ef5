// The Checkout wire shapes: the merchant's Checkout, the buyer's CheckoutPublic (with the
// organization, without metadata), and CheckoutPublicConfirmed (with a customer session token).
import type { components } from "../../generated/types.js";
import { toCustomField } from "../custom-fields/models.js";
import { iso, isoRequired } from "../kit/time.js";
import { toPublicOrganization } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import { toCustomerProduct, toPrice } from "../products/models.js";
import { seatBounds } from "../products/seat-tiers.js";
import { activeTrial, computeFlags, quoteOf, taxBehaviorOf } from "./amounts.js";
import { effectiveStatus, type CheckoutContext, type CheckoutRow } from "./repository.js";
import { orderTaxOf } from "../orders/tax.js";
import { setting } from "../config.js";

export type CheckoutOut = components["schemas"]["Checkout"];
export type CheckoutPublicOut = components["schemas"]["CheckoutPublic"];
export type CheckoutPublicConfirmedOut = components["schemas"]["CheckoutPublicConfirmed"];
type FieldMode = "required" | "optional" | "disabled";

/** The hosted checkout page of a session. */
export function checkoutUrl(clientSecret: string): string {
  const base = (setting("PUBLIC_CHECKOUT_URL") ?? setting("PUBLIC_API_URL") ?? `http://127.0.0.1:${setting("PORT")}`).replace(/\/+$/, "");
  return `${base}/checkout/${encodeURIComponent(clientSecret)}`;
}

/** Payment methods the processor takes only with a full billing address, whatever the country. */
const FULL_ADDRESS_PAYMENT_METHODS = new Set(["upi"]);

/**
 * Which billing address lines the form asks for: none but the country unless a full address is
 * required (Polar's is_billing_address_required: the checkout asks for it, the buyer buys as a
 * business, or the payment method chosen needs it); a US address always needs its state and
 * postal code, a Canadian one its province (as Polar asks: the province decides the sales tax).
 */
export function billingAddressFields(
  row: Pick<CheckoutRow, "require_billing_address" | "is_business_customer" | "customer_billing_address" | "payment_method_type">,
  paymentForm: boolean,
) {
  const country = row.customer_billing_address?.country ?? null;
  const full =
    row.require_billing_address ||
    row.is_business_customer ||
    (row.payment_method_type !== null && FULL_ADDRESS_PAYMENT_METHODS.has(row.payment_method_type));
  const us = country === "US";
  const mode = (cond: boolean, otherwise: FieldMode = "disabled"): FieldMode => (cond ? "required" : otherwise);
  return {
    country: mode(paymentForm || full, "disabled"),
    line1: mode(full),
    line2: full ? ("optional" as FieldMode) : ("disabled" as FieldMode),
    city: mode(full),
    postal_code: mode(full || us),
    state: mode(us || country === "CA", full ? "optional" : "disabled"),
  };
}

/** The fields as booleans, required or not: what clients older than 0.34 read. */
function requiredFields(fields: ReturnType<typeof billingAddressFields>) {
  return {
    country: fields.country === "required",
    state: fields.state === "required",
    city: fields.city === "required",
    postal_code: fields.postal_code === "required",
    line1: fields.line1 === "required",
    line2: fields.line2 === "required",
  };
}

export function toCheckoutDiscount(ctx: CheckoutContext) {
  const d = ctx.discount;
  if (!d) return null;
  // Object.assign onto a fresh object, not `{ ...x, more }`: V8 11 (Node 20) builds a new hidden class
  // for every object spread followed by more properties, microseconds each (bench/object-shapes.ts).
  return Object.assign(
    { duration: d.duration },
    d.duration === "repeating" ? { duration_in_months: d.duration_in_months! } : {},
    Object.assign(
      { type: d.type },
      d.type === "fixed"
        ? { amount: Number(d.amount), currency: d.currency!, amounts: { [d.currency!]: Number(d.amount) } }
        : { basis_points: d.basis_points! },
      { id: d.id, name: d.name, code: d.code },
    ),
  );
}

function base(row: CheckoutRow, ctx: CheckoutContext) {
  const amounts = quoteOf(row);
  const trialEnd = row.trial_end ? new Date(row.trial_end) : null;
  const flags = computeFlags(ctx.product.row, ctx.price, amounts, trialEnd);
  // The trial the buyer gets: none when the checkout quotes none (turned off, or a buyer who had one).
  const trial = trialEnd ? activeTrial(row, ctx.product.row) : null;
  const fields = billingAddressFields(row, flags.is_payment_form_required);
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    custom_field_data: row.custom_field_data,
    payment_processor: "stripe" as const,
    status: effectiveStatus(row),
    client_secret: row.client_secret,
    url: checkoutUrl(row.client_secret),
    expires_at: isoRequired(row.expires_at),
    success_url: (row.success_url ?? checkoutUrl(row.client_secret) + "/confirmation").replace(/\{CHECKOUT_ID\}/g, row.id),
    return_url: row.return_url,
    embed_origin: row.embed_origin,
    amount: amounts.amount,
    discount_amount: amounts.discount_amount,
    net_amount: amounts.net_amount,
    tax_amount: amounts.tax_amount,
    tax_behavior: taxBehaviorOf(ctx.price, row),
    total_amount: amounts.total_amount,
    currency: row.currency,
    allow_trial: row.allow_trial,
    active_trial_interval: trial?.interval ?? null,
    active_trial_interval_count: trial?.count ?? null,
    trial_end: iso(trialEnd),
    organization_id: row.organization_id,
    product_id: row.product_id,
    product_price_id: row.product_price_id,
    discount_id: row.discount_id,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    is_discount_applicable: flags.is_discount_applicable,
    is_free_product_price: flags.is_free_product_price,
    is_payment_required: flags.is_payment_required,
    is_payment_setup_required: flags.is_payment_setup_required,
    is_payment_form_required: flags.is_payment_form_required,
    customer_id: row.customer_id,
    is_business_customer: row.is_business_customer,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    customer_ip_address: row.customer_ip_address,
    customer_billing_name: row.customer_billing_name,
    customer_billing_address: row.customer_billing_address,
    customer_tax_id: row.customer_tax_id ? row.customer_tax_id[0] : null,
    payment_processor_metadata: row.payment_processor_metadata,
    billing_address_fields: fields,
    customer_billing_address_fields: requiredFields(fields),
    // No price is unit-based yet: a checkout sells no units.
    units: null,
    min_units: null,
    max_units: null,
    seats: row.seats,
    min_seats: ctx.price.seat_tiers ? seatBounds(ctx.price.seat_tiers).minimum : null,
    max_seats: ctx.price.seat_tiers ? seatBounds(ctx.price.seat_tiers).maximum : null,
    payment_method_type: row.payment_method_type,
    products: ctx.products.map((p) => toCustomerProduct(p.row, p.rel)),
    product: toCustomerProduct(ctx.product.row, ctx.product.rel),
    product_price: toPrice(ctx.price, ctx.product.row),
    prices: Object.fromEntries(ctx.products.map((p) => [p.row.id, p.rel.prices.map((price) => toPrice(price, p.row))])),
    discount: toCheckoutDiscount(ctx),
    attached_custom_fields: ctx.product.rel.customFields.map((f) => ({
      custom_field_id: f.id,
      custom_field: toCustomField(f),
      order: f.order,
      required: f.required,
    })),
  };
}

export function toCheckout(row: CheckoutRow, ctx: CheckoutContext): CheckoutOut {
  return Object.assign(base(row, ctx), {
    metadata: row.metadata,
    external_customer_id: row.external_customer_id,
    customer_external_id: row.external_customer_id,
    subscription_id: row.subscription_id,
    customer_metadata: row.customer_metadata,
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
  });
}

/**
 * The rate and reason of the checkout's computed tax, for the hosted checkout's tax line; nulls
 * until it is computed. The calculation itself (the provider's lines) is not the buyer's to read.
 */
function quoteTax(row: CheckoutRow): Pick<CheckoutPublicOut, "tax_rate" | "taxability_reason"> {
  if (!row.tax_calculation) return { tax_rate: null, taxability_reason: null };
  const { tax_rate, taxability_reason } = orderTaxOf(row.tax_calculation);
  return { tax_rate, taxability_reason };
}

export function toCheckoutPublic(row: CheckoutRow, ctx: CheckoutContext, organization: OrganizationRow): CheckoutPublicOut {
  return Object.assign(base(row, ctx), quoteTax(row), { organization: toPublicOrganization(organization) });
}

export function toCheckoutPublicConfirmed(
  row: CheckoutRow,
  ctx: CheckoutContext,
  organization: OrganizationRow,
  customerSessionToken: string,
): CheckoutPublicConfirmedOut {
  return Object.assign(toCheckoutPublic(row, ctx, organization), {
    status: "confirmed" as const,
    customer_session_token: customerSessionToken,
  });
}
