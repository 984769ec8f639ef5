// One place for every change a checkout accepts, whoever makes it: the merchant at create and
// update, the buyer through the client secret (update, confirm). Returns the new row values and
// context; the caller writes them. Amounts and the discount are re-derived after each change.
import { isIP } from "node:net";
import type { Knex } from "knex";
import { checkAddress } from "../customers/address.js";
import { checkEmail } from "../kit/email.js";
import { detectTaxId } from "../customers/tax-id.js";
import { findLiveByCodeWithProducts, findLiveByIdWithProducts } from "../discounts/repository.js";
import { invalid, type ValidationIssue } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { checkMetadata } from "../kit/metadata.js";
import { checkHttpUrl } from "../kit/urls.js";
import { discountProblem, priceAmount, priceCurrency } from "../discounts/amounts.js";
import { checkCustomFieldData } from "../custom-fields/data.js";
import { contactOf, findTestClockOf } from "../customers/repository.js";
import type { DiscountRow } from "../discounts/repository.js";
import type { Interval } from "../products/repository.js";
import { isPurchasable } from "../products/models.js";
import { givenTrial } from "../products/trials.js";
import { checkSeatCount, seatBounds, seatsAmount } from "../products/seat-tiers.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { addIntervals } from "../subscriptions/periods.js";
import { hadTrial } from "../subscriptions/repository.js";
import { clockNow } from "../test-clocks/repository.js";
import { activeTrial, computeFlags, quoteOf } from "./amounts.js";
import { buyerRedemptions, type CheckoutContext, type CheckoutRow } from "./repository.js";
import type { CheckoutQuotes } from "./tax.js";

export const REDEMPTION_LIMIT_REACHED = "You have already redeemed this discount the maximum number of times allowed per customer.";

/**
 * Whether the checkout's buyer (its customer, or the email typed or the customer's) has redeemed
 * the discount its `max_redemptions_per_customer` times already, in other checkouts.
 */
export async function redemptionLimitReached(
  db: Knex,
  discount: DiscountRow,
  row: Pick<CheckoutRow, "id" | "customer_id" | "customer_email">,
): Promise<boolean> {
  if (discount.max_redemptions_per_customer === null) return false;
  const emails = [row.customer_email, row.customer_id ? (await contactOf(db, row.customer_id))?.email : null]
    .filter((e): e is string => typeof e === "string")
    .map((e) => e.toLowerCase());
  const used = await buyerRedemptions(db, discount.id, row.id, { customerId: row.customer_id, emails: [...new Set(emails)] });
  return used >= discount.max_redemptions_per_customer;
}

export interface BuyerChanges {
  custom_field_data?: Record<string, unknown> | null;
  product_id?: string | null;
  product_price_id?: string | null;
  amount?: number | null;
  /** The seats a seat-based price buys. */
  seats?: number | null;
  is_business_customer?: boolean | null;
  customer_name?: string | null;
  customer_email?: string | null;
  customer_billing_name?: string | null;
  customer_billing_address?: unknown;
  customer_tax_id?: string | null;
  discount_code?: string | null;
  /** The payment method type chosen in the form; the buyer's alone. */
  payment_method_type?: string | null;
  /** The buyer may only turn a trial off (false). */
  allow_trial?: boolean | null;
}

export interface MerchantChanges extends Omit<BuyerChanges, "discount_code" | "payment_method_type"> {
  metadata?: Record<string, unknown>;
  discount_id?: string | null;
  allow_discount_codes?: boolean | null;
  require_billing_address?: boolean | null;
  customer_ip_address?: string | null;
  customer_metadata?: Record<string, unknown> | null;
  success_url?: string | null;
  return_url?: string | null;
  embed_origin?: string | null;
  trial_interval?: Interval | null;
  trial_interval_count?: number | null;
}

type Changes = BuyerChanges & MerchantChanges;

export function checkEmbedOrigin(origin: string | null | undefined): string | null {
  if (origin === undefined || origin === null) return null;
  const parsed = (() => {
    try {
      return new URL(origin);
    } catch {
      return null;
    }
  })();
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw invalid(["body", "embed_origin"], "Input should be a valid origin", "url_parsing", origin);
  }
  return parsed.origin;
}

/** The buyer's address as the merchant saw it: an IPv4 or IPv6 address, as Polar's IPvAnyAddress. */
function checkIpAddress(address: string | null): string | null {
  if (address !== null && isIP(address) === 0) {
    throw invalid(["body", "customer_ip_address"], "value is not a valid IPv4 or IPv6 address", "ip_any_address", address);
  }
  return address;
}

export async function applyChanges(
  db: Knex,
  row: CheckoutRow,
  ctx: CheckoutContext,
  input: Changes,
  who: "merchant" | "buyer",
  quotes: CheckoutQuotes,
): Promise<{ row: CheckoutRow; ctx: CheckoutContext }> {
  const next: CheckoutRow = { ...row };
  const nextCtx: CheckoutContext = { ...ctx };

  // Product and price: one of the checkout's products, one of its live prices.
  const productId = input.product_id ?? (input.product_price_id ? undefined : null);
  let priceChanged = false;
  if (input.product_price_id) {
    const price = ctx.products.flatMap((p) => p.rel.prices).find((p) => p.id === input.product_price_id);
    if (!price)
      throw invalid(["body", "product_price_id"], "Price is not available in this checkout.", "value_error", input.product_price_id);
    if (productId && price.product_id !== productId) {
      throw invalid(["body", "product_price_id"], "Price does not belong to the selected product.", "value_error", input.product_price_id);
    }
    nextCtx.product = ctx.products.find((p) => p.row.id === price.product_id)!;
    nextCtx.price = price;
    priceChanged = price.id !== row.product_price_id;
  } else if (productId) {
    const product = ctx.products.find((p) => p.row.id === productId);
    if (!product) throw invalid(["body", "product_id"], "Product is not available in this checkout.", "value_error", productId);
    if (product.row.id !== row.product_id) {
      const price = product.rel.prices.find((p) => p.amount_type !== "metered_unit") ?? product.rel.prices[0];
      if (!price) throw invalid(["body", "product_id"], "Product has no price.", "value_error", productId);
      nextCtx.product = product;
      nextCtx.price = price;
      priceChanged = true;
    }
  }
  next.product_id = nextCtx.product.row.id;
  next.product_price_id = nextCtx.price.id;
  next.currency = priceCurrency(nextCtx.price);
  if (input.amount !== undefined && input.amount !== null) next.amount = priceAmount(nextCtx.price, input.amount);
  else if (priceChanged) next.amount = priceAmount(nextCtx.price, null);
  const tiers = nextCtx.price.seat_tiers;
  if (nextCtx.price.amount_type === "seat_based" && tiers) {
    const given = input.seats ?? null;
    next.seats =
      given !== null
        ? checkSeatCount(tiers, given, ["body", "seats"])
        : priceChanged
          ? seatBounds(tiers).minimum
          : (row.seats ?? seatBounds(tiers).minimum);
    next.amount = seatsAmount(tiers, next.seats);
  } else {
    if (input.seats !== undefined && input.seats !== null) {
      throw invalid(["body", "seats"], "Seats can only be set for a seat-based price.", "value_error", input.seats);
    }
    next.seats = null;
  }

  if (input.customer_email !== undefined) {
    next.customer_email = input.customer_email === null ? null : checkEmail(input.customer_email, ["body", "customer_email"]);
  }
  if (input.customer_name !== undefined) next.customer_name = input.customer_name;
  if (input.customer_billing_name !== undefined) next.customer_billing_name = input.customer_billing_name;
  if (input.is_business_customer !== undefined && input.is_business_customer !== null)
    next.is_business_customer = input.is_business_customer;
  if (input.customer_billing_address !== undefined) {
    next.customer_billing_address =
      input.customer_billing_address === null ? null : checkAddress(input.customer_billing_address, ["body", "customer_billing_address"]);
  }
  if (input.customer_tax_id !== undefined) {
    if (input.customer_tax_id === null || input.customer_tax_id.trim() === "") next.customer_tax_id = null;
    else {
      const country = next.customer_billing_address?.country;
      if (!country) throw invalid(["body", "customer_tax_id"], "A billing country is required to validate the tax ID.", "value_error");
      next.customer_tax_id = detectTaxId(input.customer_tax_id, country, ["body", "customer_tax_id"]);
    }
  }
  next.custom_field_data = checkCustomFieldData(nextCtx.product.rel.customFields, row.custom_field_data, input.custom_field_data, {
    requireAll: false,
  });

  if (who === "merchant") {
    if (input.metadata !== undefined) next.metadata = checkMetadata(input.metadata);
    if (input.customer_metadata !== undefined)
      next.customer_metadata = checkMetadata(input.customer_metadata ?? {}, ["body", "customer_metadata"]);
    if (input.allow_discount_codes !== undefined && input.allow_discount_codes !== null)
      next.allow_discount_codes = input.allow_discount_codes;
    if (input.require_billing_address !== undefined && input.require_billing_address !== null) {
      next.require_billing_address = input.require_billing_address;
    }
    if (input.customer_ip_address !== undefined) next.customer_ip_address = checkIpAddress(input.customer_ip_address);
    if (input.success_url !== undefined) next.success_url = checkHttpUrl(input.success_url, ["body", "success_url"]);
    if (input.return_url !== undefined) next.return_url = checkHttpUrl(input.return_url, ["body", "return_url"]);
    if (input.allow_trial !== undefined && input.allow_trial !== null) next.allow_trial = input.allow_trial;
    Object.assign(next, givenTrial(input));
    if (input.embed_origin !== undefined) next.embed_origin = checkEmbedOrigin(input.embed_origin);
    if (input.discount_id !== undefined) {
      if (input.discount_id === null) {
        nextCtx.discount = null;
        next.discount_id = null;
        next.discount_locked = false;
      } else {
        const found = isUuid(input.discount_id) ? await findLiveByIdWithProducts(db, row.organization_id, input.discount_id) : null;
        if (!found) throw invalid(["body", "discount_id"], "Discount does not exist.", "value_error", input.discount_id);
        const problem = discountProblem(found.row, found.productIds, nextCtx.product.row, nextCtx.price);
        if (problem) throw invalid(["body", "discount_id"], problem, "value_error", input.discount_id);
        nextCtx.discount = found.row;
        nextCtx.discountProductIds = found.productIds;
        next.discount_id = found.row.id;
        next.discount_locked = true;
      }
    }
  } else if (input.allow_trial === false) {
    next.allow_trial = false;
  }
  if (who === "buyer" && input.payment_method_type !== undefined) {
    next.payment_method_type =
      input.payment_method_type === null || input.payment_method_type.trim() === "" ? null : input.payment_method_type.trim();
  }
  if (who === "buyer" && input.discount_code !== undefined) {
    if (input.discount_code === null || input.discount_code === "") {
      if (!row.discount_locked) {
        nextCtx.discount = null;
        next.discount_id = null;
      }
    } else {
      if (!row.allow_discount_codes)
        throw invalid(["body", "discount_code"], "Discount codes are not allowed on this checkout.", "value_error");
      if (row.discount_locked) throw invalid(["body", "discount_code"], "A discount is already applied to this checkout.", "value_error");
      const code = input.discount_code;
      const found = await findLiveByCodeWithProducts(db, row.organization_id, code);
      if (!found) throw invalid(["body", "discount_code"], "Discount does not exist.", "value_error", code);
      const problem = discountProblem(found.row, found.productIds, nextCtx.product.row, nextCtx.price);
      if (problem) throw invalid(["body", "discount_code"], problem, "value_error", code);
      // Told at once; the confirm checks again, under the discount's lock.
      if (await redemptionLimitReached(db, found.row, next))
        throw invalid(["body", "discount_code"], REDEMPTION_LIMIT_REACHED, "value_error", code);
      nextCtx.discount = found.row;
      nextCtx.discountProductIds = found.productIds;
      next.discount_id = found.row.id;
    }
  }

  // A discount that no longer fits the product or price falls off.
  if (nextCtx.discount && discountProblem(nextCtx.discount, nextCtx.discountProductIds, nextCtx.product.row, nextCtx.price)) {
    nextCtx.discount = null;
    next.discount_id = null;
    next.discount_locked = false;
  }
  const org = (await findOrganization(db, row.organization_id))!;
  next.trial_end = await trialEnd(db, next, nextCtx, org);
  const quoted = await requote(next, nextCtx, org, quotes);
  // The method chosen goes with the payment form: none once the checkout needs no payment.
  if (!computeFlags(nextCtx.product.row, nextCtx.price, quoteOf(quoted), quoted.trial_end).is_payment_form_required)
    quoted.payment_method_type = null;
  return { row: quoted, ctx: nextCtx };
}

/**
 * When the trial this checkout would start now ends (null without one): from the checkout's
 * customer's test clock time when the customer is bound to one, as the subscription will start.
 */
async function trialEnd(db: Knex, row: CheckoutRow, ctx: CheckoutContext, org: OrganizationRow): Promise<Date | null> {
  const trial = activeTrial(row, ctx.product.row);
  if (!trial) return null;
  // With prevent_trial_abuse, a buyer who had a trial before (as this customer or this email) gets none.
  if (org.subscription_settings?.prevent_trial_abuse) {
    if (await hadTrial(db, row.organization_id, { customerId: row.customer_id, email: row.customer_email })) return null;
  }
  const clock = row.customer_id ? (await findTestClockOf(db, row.customer_id))?.test_clock_id : null;
  return addIntervals(await clockNow(db, clock), trial.interval, trial.count);
}

/** The row with its quote (discount, tax, total) computed from its amount, discount and buyer, and its tax calculation. */
async function requote(
  row: CheckoutRow,
  ctx: CheckoutContext,
  org: Pick<OrganizationRow, "tax_settings">,
  quotes: CheckoutQuotes,
): Promise<CheckoutRow> {
  const { amounts, calculation } = await quotes.quote(row, ctx, org);
  const { discount_amount, tax_amount, total_amount } = amounts;
  return Object.assign({}, row, { discount_amount, tax_amount, total_amount, tax_calculation: calculation });
}

type Loaded = CheckoutContext["product"];
const staticPrice = (p: Loaded) => p.rel.prices.find((price) => price.amount_type !== "metered_unit");

/**
 * The checkout as the world stands now, with no change of the buyer's: its product or price
 * archived (or the product made a draft) since (another live price of the product, else another
 * product of the checkout, is taken), its discount no longer applicable (dropped), its discount's terms changed. `issue`
 * names what moved the total away from the quote the buyer was shown, or why the checkout can't
 * be paid at all; null when the quote still holds. `ctx.discount` must be read under lock.
 */
export async function rederive(
  row: CheckoutRow,
  ctx: CheckoutContext,
  org: Pick<OrganizationRow, "tax_settings">,
  quotes: CheckoutQuotes,
): Promise<{ row: CheckoutRow; ctx: CheckoutContext; issue: ValidationIssue | null }> {
  let next: CheckoutRow = { ...row };
  const nextCtx: CheckoutContext = { ...ctx };
  let issue: ValidationIssue | null = null;
  const note = (field: string, msg: string) => void (issue ??= { loc: ["body", field], msg, type: "value_error" });

  const priceLive = isPurchasable(ctx.product.row) && ctx.product.rel.prices.some((p) => p.id === ctx.price.id);
  if (!priceLive) {
    const product = [ctx.product, ...ctx.products].find((p) => isPurchasable(p.row) && staticPrice(p));
    if (!product) {
      return { row, ctx, issue: { loc: ["body", "product_id"], msg: "This product is no longer available.", type: "value_error" } };
    }
    const price = staticPrice(product)!;
    nextCtx.product = product;
    nextCtx.price = price;
    next.product_id = product.row.id;
    next.product_price_id = price.id;
    next.currency = priceCurrency(price);
    // A pay-what-you-want amount carries over when the new price allows it.
    let amount: number;
    try {
      amount = priceAmount(price, price.amount_type === "custom" && ctx.price.amount_type === "custom" ? Number(row.amount) : null);
    } catch {
      amount = priceAmount(price, null);
    }
    next.amount = amount;
    next.seats = price.seat_tiers ? seatBounds(price.seat_tiers).minimum : null;
    if (product.row.id !== ctx.product.row.id)
      note("product_id", "This product is no longer available; another product of this checkout was selected.");
    else note("product_price_id", "The price of this product changed.");
  }
  if (nextCtx.discount) {
    const problem = discountProblem(nextCtx.discount, nextCtx.discountProductIds, nextCtx.product.row, nextCtx.price);
    if (problem) {
      nextCtx.discount = null;
      next.discount_id = null;
      next.discount_locked = false;
      note("discount_code", problem);
    }
  }
  next = await requote(next, nextCtx, org, quotes);
  if (next.discount_amount !== Number(row.discount_amount)) note("discount_code", "The discount changed.");
  if (next.total_amount !== Number(row.total_amount) || next.currency !== row.currency) note("amount", "The total changed.");
  return { row: next, ctx: nextCtx, issue };
}

/** The columns of a checkout row as written to the database (JSON columns serialized). */
export function toColumns(row: CheckoutRow): Record<string, unknown> {
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  return {
    status: row.status,
    success_url: row.success_url,
    embed_origin: row.embed_origin,
    amount: row.amount,
    seats: row.seats,
    discount_amount: row.discount_amount,
    tax_amount: row.tax_amount,
    total_amount: row.total_amount,
    shown_total_amount: row.shown_total_amount,
    currency: row.currency,
    product_id: row.product_id,
    product_price_id: row.product_price_id,
    discount_id: row.discount_id,
    discount_locked: row.discount_locked,
    allow_discount_codes: row.allow_discount_codes,
    require_billing_address: row.require_billing_address,
    customer_id: row.customer_id,
    is_business_customer: row.is_business_customer,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    customer_ip_address: row.customer_ip_address,
    customer_billing_name: row.customer_billing_name,
    customer_billing_address: json(row.customer_billing_address),
    customer_tax_id: json(row.customer_tax_id),
    tax_calculation: json(row.tax_calculation),
    external_customer_id: row.external_customer_id,
    subscription_id: row.subscription_id,
    payment_processor_metadata: json(row.payment_processor_metadata),
    metadata: json(row.metadata),
    customer_metadata: json(row.customer_metadata),
    custom_field_data: json(row.custom_field_data),
    payment_ref: row.payment_ref,
    confirmation_token_id: row.confirmation_token_id,
    confirmed_at: row.confirmed_at,
    return_url: row.return_url,
    allow_trial: row.allow_trial,
    trial_interval: row.trial_interval,
    trial_interval_count: row.trial_interval_count,
    trial_end: row.trial_end,
    payment_method_type: row.payment_method_type,
  };
}
