// Confirm, with one winner: (1) a transaction locks the open checkout, applies the buyer's last
// changes, reserves the discount and marks it confirmed under a lease (./lease.ts); (2) the charge
// runs outside any transaction, keyed by the checkout id; (3) a transaction writes the outcome:
// customer, order and payment, or on a decline the checkout open again and the discount released.
// Tax quotes are asked outside the lock (./tax.ts). docs/CHECKOUTS.md and docs/RELIABILITY.md.
import type { Knex } from "knex";
import { toCustomer } from "../customers/models.js";
import { savedCardMetadata } from "../customers/saved-cards.js";
import * as customers from "../customers/repository.js";
import type { CustomerRow } from "../customers/repository.js";
import { checkTaxIdAfterCommit } from "../customers/tax-id-check.js";
import * as discounts from "../discounts/repository.js";
import type { DiscountRow } from "../discounts/repository.js";
import { insertSession } from "../customer-sessions/repository.js";
import { createOwnerMember } from "../members/service.js";
import { CUSTOMER_SESSION_TTL_MS } from "../customer-sessions/service.js";
import { hashToken, randomToken, type Caller } from "../kit/auth.js";
import type { AnswerJournal } from "../kit/idempotency.js";
import { invalid, RequestValidationError, ResourceNotFound, type ValidationIssue } from "../kit/errors.js";
import { logger } from "../kit/logger.js";
import { emit } from "../kit/outbox.js";
import { findById as findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { insertOrder, markOrderPaid } from "../orders/service.js";
import { createSubscriptionForCheckout } from "../subscriptions/service.js";
import { attributeExternalEvents } from "../meters/rollups.js";
import { countForCheckout } from "../payments/repository.js";
import { recordPayment } from "../payments/service.js";
import { getProcessor } from "../processors/index.js";
import {
  tookNothing,
  type CardDetails,
  type ConfirmResult,
  type PaymentProcessor,
  type ProcessorDispute,
} from "../processors/processor.js";
import { applyProcessorDispute } from "../disputes/service.js";
import { computeAmounts, discountProblem, type Amounts } from "../discounts/amounts.js";
import { activeTrial, computeFlags, quoteOf, type Flags } from "./amounts.js";
import { applyChanges, redemptionLimitReached, REDEMPTION_LIMIT_REACHED, rederive, type BuyerChanges } from "./changes.js";
import { withTaxQuotes } from "./tax.js";
import { orderTaxOf } from "../orders/tax.js";
import { checkCustomFieldData } from "../custom-fields/data.js";
import { PaymentError, PaymentNotReady } from "./errors.js";
import { keepLease, leaseMs, newLease } from "./lease.js";
import { billingAddressFields, toCheckoutPublicConfirmed, type CheckoutPublicConfirmedOut } from "./models.js";
import { findByIdForUpdate, findBySecret, endConfirmLease, leaseConfirm, type CheckoutContext, type CheckoutRow } from "./repository.js";
import { assertOpen, contextOf, saveCheckout } from "./service.js";
import { UnitOfWork } from "../kit/unit-of-work.js";

export interface ConfirmInput extends BuyerChanges {
  confirmation_token_id?: string | null;
}

/** What confirm requires besides an open checkout: an email, the billing address lines asked for, required custom fields. */
function checkComplete(row: CheckoutRow, ctx: CheckoutContext, paymentForm: boolean): void {
  if (!row.customer_email) throw invalid(["body", "customer_email"], "Field required", "missing");
  const fields = billingAddressFields(row, paymentForm);
  const address = row.customer_billing_address as Record<string, string | null> | null;
  for (const [line, mode] of Object.entries(fields)) {
    if (mode !== "required") continue;
    if (!address || !address[line]) throw invalid(["body", "customer_billing_address", line], "Field required", "missing");
  }
  if (row.is_business_customer && !row.customer_billing_name) {
    throw invalid(["body", "customer_billing_name"], "A business customer needs a billing name.", "missing");
  }
  checkCustomFieldData(ctx.product.rel.customFields, row.custom_field_data, null, { requireAll: true });
}

/** Why a confirm charges nothing: the issue a 422 names. */
interface Refusal {
  refused: ValidationIssue;
}

const lockDiscount = (trx: Knex.Transaction, id: string) => discounts.lockById(trx, id);

/**
 * The buyer is charged the total of the last view of the checkout they were given, or nothing.
 * Under the checkout's lock (and its discount's: the serialization point of redemptions), the
 * checkout is re-derived as the world stands now; then the confirm's own changes are applied.
 * When the total is not the one last shown, the new state is saved (the checkout stays open, and
 * the buyer's next view shows, and so allows, the new totals) and the confirm is refused with
 * the field that moved it.
 */
async function claim(db: Knex, clientSecret: string, input: ConfirmInput, caller: Caller, journal: AnswerJournal | null): Promise<Claimed> {
  const claimed = await withTaxQuotes(db, async (trx, quotes) => {
    // First: a second request with the same key waits here, then finds the key taken (409).
    await journal?.begin(trx);
    const row = await findBySecret(trx, clientSecret, { forUpdate: true });
    if (!row || (caller.kind === "organization" && caller.organizationId !== row.organization_id)) {
      throw new ResourceNotFound("Checkout not found.");
    }
    assertOpen(row, "gone");
    const stored = await contextOf(trx, row);
    if (row.discount_id) stored.discount = await lockDiscount(trx, row.discount_id);
    // Read here once: the tax of the quote, the payment check below, and the organization in the answer.
    const org = (await findOrganization(trx, row.organization_id))!;
    const now = await rederive(row, stored, org, quotes);
    if (now.issue) {
      await saveCheckout(trx, now.row, now.ctx);
      return { refused: now.issue } satisfies Refusal;
    }
    const { confirmation_token_id: token, ...changes } = input;
    const applied = await applyChanges(trx, now.row, now.ctx, changes, "buyer", quotes);
    let discount: DiscountRow | null = applied.ctx.discount;
    if (applied.row.discount_id && applied.row.discount_id !== row.discount_id) {
      // A code given with the confirm itself: its discount is checked under lock too.
      discount = await lockDiscount(trx, applied.row.discount_id);
      const problem = discountProblem(discount, applied.ctx.discountProductIds, applied.ctx.product.row, applied.ctx.price);
      if (problem) throw invalid(["body", "discount_code"], problem, "value_error");
      applied.ctx.discount = discount;
    }
    const quote = await quotes.quote(applied.row, applied.ctx, org);
    const amounts = quote.amounts;
    applied.row.tax_calculation = quote.calculation;
    if (amounts.total_amount !== Number(row.shown_total_amount) || applied.row.currency !== row.currency) {
      const field =
        applied.row.discount_id !== row.discount_id || amounts.discount_amount !== Number(row.discount_amount)
          ? "discount_code"
          : applied.row.product_id !== row.product_id
            ? "product_id"
            : applied.row.product_price_id !== row.product_price_id
              ? "product_price_id"
              : "amount";
      const { discount_amount, tax_amount, total_amount } = amounts;
      await saveCheckout(trx, Object.assign({}, applied.row, { discount_amount, tax_amount, total_amount }), applied.ctx);
      return {
        refused: {
          loc: ["body", field],
          msg: "The total is not the one last shown; view the checkout again and confirm.",
          type: "value_error",
        },
      } satisfies Refusal;
    }
    const flags = computeFlags(applied.ctx.product.row, applied.ctx.price, amounts, applied.row.trial_end);
    checkComplete(applied.row, applied.ctx, flags.is_payment_form_required);
    if (quote.issue) throw new RequestValidationError([quote.issue]);
    if (flags.is_payment_form_required && !token) throw invalid(["body", "confirmation_token_id"], "Field required", "missing");
    // A denied organization may keep giving free products away, but takes no payment.
    if (flags.is_payment_form_required && org.status === "denied") throw new PaymentNotReady();
    if (discount) {
      if (await redemptionLimitReached(trx, discount, applied.row))
        throw invalid(["body", "discount_code"], REDEMPTION_LIMIT_REACHED, "value_error");
      await discounts.reserveRedemption(trx, discount);
    }
    applied.row.status = "confirmed";
    applied.row.confirmed_at = new Date();
    applied.row.confirmation_token_id = token ?? null;
    const saved = await saveCheckout(trx, applied.row, applied.ctx);
    const lease = newLease();
    await leaseConfirm(trx, row.id, lease, leaseMs());
    await journal?.hold(trx, `checkout:${row.id}`);
    return { row: saved, ctx: applied.ctx, org, amounts, flags, token: token ?? null, attempt: await attemptOf(trx, row.id), lease };
  });
  if (claimed.refused) throw new RequestValidationError([claimed.refused]);
  return claimed;
}

async function findOrCreateCustomer(trx: Knex.Transaction, row: CheckoutRow): Promise<CustomerRow> {
  const live = () => customers.liveInOrganization(trx, row.organization_id);
  if (row.customer_id) {
    const existing = await live().where({ id: row.customer_id }).first();
    if (existing) return billedAsCheckout(trx, existing as CustomerRow, row);
  }
  if (row.external_customer_id) {
    // The merchant's own id for the buyer wins over the email.
    const known = await live().where({ external_id: row.external_customer_id }).first();
    if (known) return billedAsCheckout(trx, known as CustomerRow, row);
  }
  const email = row.customer_email!;
  // Matched case-insensitively; two buyers with one email at once meet at the unique index.
  const created = await customers.insertUnlessEmailTaken(trx, {
    organization_id: row.organization_id,
    email,
    name: row.customer_name,
    billing_name: row.customer_billing_name,
    billing_address: row.customer_billing_address,
    tax_id: row.customer_tax_id,
    external_id: row.external_customer_id,
    metadata: row.customer_metadata,
  });
  if (created) {
    checkTaxIdAfterCommit(trx, created);
    // Events ingested for the buyer's external id before they existed are theirs now.
    const customer = row.external_customer_id ? await attributeExternalEvents(trx, created, row.external_customer_id) : created;
    await emit(trx, row.organization_id, "customer.created", toCustomer(customer));
    await createOwnerMember(trx, customer, null);
    return customer;
  }
  return (await live().whereRaw("lower(email) = lower(?)", [email]).first()) as CustomerRow;
}

/**
 * The customer the merchant bound the checkout to, with the billing name (a business's), address
 * and tax id the buyer paid with: renewals are taxed from them. A customer matched by email alone
 * keeps its own.
 */
async function billedAsCheckout(trx: Knex.Transaction, customer: CustomerRow, row: CheckoutRow): Promise<CustomerRow> {
  const patch: Record<string, unknown> = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (row.customer_billing_name && row.customer_billing_name !== customer.billing_name) patch.billing_name = row.customer_billing_name;
  if (row.customer_billing_address && !same(row.customer_billing_address, customer.billing_address))
    patch.billing_address = JSON.stringify(row.customer_billing_address);
  if (row.customer_tax_id && !same(row.customer_tax_id, customer.tax_id)) patch.tax_id = JSON.stringify(row.customer_tax_id);
  if (Object.keys(patch).length === 0) return customer;
  await customers.lockCustomer(trx, customer.id);
  const updated = await customers.updateCustomerRow(trx, customer.id, Object.assign(patch, { modified_at: new Date() }));
  if ("tax_id" in patch) checkTaxIdAfterCommit(trx, updated);
  await emit(trx, row.organization_id, "customer.updated", toCustomer(updated));
  return updated;
}

/** A session that shows this checkout's purchase alone: paying proves no ownership of the email. */
async function mintSession(trx: Knex.Transaction, customerId: string, checkoutId: string): Promise<string> {
  const token = randomToken("polar_cst_");
  const expires_at = new Date(Date.now() + CUSTOMER_SESSION_TTL_MS);
  await insertSession(trx, { customer_id: customerId, token_hash: hashToken(token), expires_at, checkout_id: checkoutId });
  return token;
}

/** The processor customer of a customer, and a saved card (default when the customer has none). */
async function saveProcessorRefs(trx: Knex.Transaction, row: CheckoutRow, customerId: string, payment: Completion): Promise<void> {
  if (payment.processorCustomerRef) {
    await customers.insertProcessorCustomer(trx, customerId, payment.processor, payment.processorCustomerRef);
  }
  if (!payment.paymentMethodRef) return;
  // The customer row lock serializes this with the portal's payment method adds: one default.
  await customers.lockCustomer(trx, customerId);
  const live = () => customers.livePaymentMethods(trx, customerId);
  if (await live().where({ processor_ref: payment.paymentMethodRef }).first("id")) return;
  const hasDefault = await live().where({ is_default: true }).first("id");
  await customers.addPaymentMethod(trx, {
    organization_id: row.organization_id,
    customer_id: customerId,
    processor: "stripe",
    type: "card",
    method_metadata: JSON.stringify(savedCardMetadata(payment.card)),
    processor_ref: payment.paymentMethodRef,
    is_default: !hasDefault,
  });
}

/** The processor customer a saved method attaches to: the known one, else a new one keyed by the checkout. */
async function processorCustomer(db: Knex, processor: PaymentProcessor, row: CheckoutRow): Promise<string> {
  if (row.customer_id) {
    const known = await customers.findProcessorCustomer(db, row.customer_id, processor.name);
    if (known) return known.processor_customer_id;
  }
  return processor.createCustomer({
    email: row.customer_email!,
    name: row.customer_name,
    idempotencyKey: `checkout:${row.id}:customer`,
    metadata: { checkout_id: row.id, organization_id: row.organization_id },
  });
}

const paymentBase = (row: CheckoutRow, amount: number) => ({
  organizationId: row.organization_id,
  checkoutId: row.id,
  processor: "stripe" as const,
  amount,
  currency: row.currency,
  method: "card" as const,
  trigger: "purchase" as const,
});

/** Success: customer, order (paid), payment, status succeeded. Idempotent: a checkout already succeeded is left as it is. */
export interface Completion {
  processor: string;
  /** The charge, when there was one. */
  paymentRef: string | null;
  card: CardDetails | null;
  /** A method saved for off-session charges (subscriptions), and the processor customer it belongs to. */
  paymentMethodRef?: string | null;
  processorCustomerRef?: string | null;
  /** A dispute the processor opened on the charge at once (the sandbox's dispute card). */
  dispute?: ProcessorDispute;
}

/** A completed (or awaiting) checkout, as the confirm answers it. */
export interface Outcome {
  row: CheckoutRow;
  ctx: CheckoutContext;
  customerSessionToken: string;
}

/** Work done in the outcome's own transaction before it commits (the confirm's idempotent answer). */
export type Settle<T> = (trx: Knex.Transaction, outcome: T) => Promise<void>;

/**
 * The checkout, locked, while it waits for an outcome that this writer may write: one holding its
 * current lease, or one with no lease (the processor's webhook, which reports a known outcome).
 */
async function lockConfirmed(trx: Knex.Transaction, checkoutId: string, lease?: string): Promise<CheckoutRow | null> {
  const row = await findByIdForUpdate(trx, checkoutId);
  if (!row || row.status !== "confirmed") return null;
  return lease === undefined || row.confirm_lease_id === lease ? row : null;
}

/** `db` is the pool: the confirm commits in steps, so nothing calls this inside a transaction. */
export async function completeCheckout(
  db: Knex,
  checkoutId: string,
  payment: Completion | null,
  claimed?: Pick<Claimed, "ctx" | "lease">,
  settle?: Settle<Outcome>,
): Promise<Outcome | null> {
  return db.transaction(async (trx) => {
    const row = await lockConfirmed(trx, checkoutId, claimed?.lease);
    if (!row) return null;
    // A confirmed checkout no longer changes, so the context its claim read (products, price, the
    // discount whose redemption it reserved: what was charged) still holds; the processor's
    // webhook completing it later reads it again.
    const ctx = claimed?.ctx ?? (await contextOf(trx, row));
    // A trial charges nothing now: the first order is 0 and the price is charged when it ends.
    const trial = row.trial_end ? activeTrial(row, ctx.product.row) : null;
    const quote = quoteOf(row);
    const amounts = trial ? computeAmounts(0, null) : quote;
    // The tax the buyer was quoted (none on a trial's first order, which charges nothing).
    const taxCalculation = trial ? null : row.tax_calculation;
    const customer = await findOrCreateCustomer(trx, row);
    if (payment) await saveProcessorRefs(trx, row, customer.id, payment);
    // A recurring product starts its subscription; the first order is its subscription_create order.
    const subscription = ctx.product.row.recurring_interval
      ? await createSubscriptionForCheckout(new UnitOfWork(db), trx, {
          organizationId: row.organization_id,
          customerId: customer.id,
          product: ctx.product.row,
          price: ctx.price,
          amount: quote.amount,
          currency: row.currency,
          discountId: row.discount_id,
          checkoutId: row.id,
          paymentMethodId: payment?.paymentMethodRef
            ? ((await customers.livePaymentMethods(trx, customer.id).where({ processor_ref: payment.paymentMethodRef }).first("id"))?.id ??
              null)
            : null,
          metadata: row.metadata,
          customFieldData: row.custom_field_data,
          trial,
          seats: row.seats,
        })
      : null;
    // order.created and order.paid are built from the rows in hand (customer, product, discount,
    // subscription, lines) instead of being read back twice.
    const known = {
      customers: new Map([[customer.id, customer]]),
      products: new Map([[ctx.product.row.id, ctx.product.row]]),
      discounts: new Map(ctx.discount ? [[ctx.discount.id, ctx.discount]] : []),
      subscriptions: new Map(subscription ? [[subscription.id, subscription]] : []),
    };
    const created = await insertOrder(
      trx,
      {
        organizationId: row.organization_id,
        customerId: customer.id,
        productId: row.product_id,
        productPriceId: row.product_price_id,
        checkoutId: row.id,
        subscriptionId: subscription?.id ?? null,
        billingReason: ctx.product.row.recurring_interval ? "subscription_create" : "purchase",
        currency: row.currency,
        // Before tax: a price that includes tax has it carved out (net + tax = the total charged).
        subtotalAmount: amounts.net_amount + amounts.discount_amount,
        discountAmount: amounts.discount_amount,
        discountId: trial ? null : row.discount_id,
        taxAmount: amounts.tax_amount,
        items: [
          {
            label: trial ? `${ctx.product.row.name} (free trial)` : ctx.product.row.name,
            amount: amounts.net_amount + amounts.discount_amount,
            taxAmount: amounts.tax_amount,
            proration: false,
            productPriceId: row.product_price_id,
            // A subscription's first order bills its first period (the trial, with one).
            period: subscription ? { start: subscription.current_period_start, end: subscription.current_period_end } : null,
          },
        ],
        billingName: row.customer_billing_name ?? row.customer_name,
        billingAddress: row.customer_billing_address,
        metadata: row.metadata,
        customFieldData: row.custom_field_data,
        tax: taxCalculation ? orderTaxOf(taxCalculation) : null,
        // A subscription's seats are the subscription's; a one-time purchase's are the order's.
        seats: subscription ? null : row.seats,
      },
      known,
    );
    const order = created.row;
    await emit(trx, row.organization_id, "order.created", created.out);
    if (payment?.paymentRef && amounts.total_amount > 0) {
      await recordPayment(
        trx,
        Object.assign(paymentBase(row, amounts.total_amount), {
          orderId: order.id,
          status: "succeeded" as const,
          methodMetadata: payment.card,
          declineReason: null,
          declineMessage: null,
          processorMetadata: { processor: payment.processor },
          processorRef: payment.paymentRef,
        }),
      );
    }
    await markOrderPaid(trx, order.id, { locked: order, reads: Object.assign({}, known, { items: new Map([[order.id, created.items]]) }) });
    if (payment?.dispute) await applyProcessorDispute(new UnitOfWork(db), trx, payment.processor, payment.dispute);
    const saved = await saveCheckout(
      trx,
      Object.assign({}, row, {
        status: "succeeded" as const,
        customer_id: customer.id,
        payment_ref: payment?.paymentRef ?? null,
        subscription_id: subscription?.id ?? row.subscription_id,
        // The trial as it started (the quote's end was computed at the last write).
        trial_end: subscription?.trial_end ?? row.trial_end,
      }),
      ctx,
    );
    const outcome = { row: saved, ctx, customerSessionToken: await mintSession(trx, customer.id, row.id) };
    await settle?.(trx, outcome);
    return outcome;
  });
}

/**
 * Decline: the checkout open again for another card (failed if it expired meanwhile), the discount
 * reservation released, the failed payment recorded. False when it was not the writer's to fail
 * (settled meanwhile, or its lease lost).
 */
export async function failCheckout(
  db: Knex,
  checkoutId: string,
  decline: { paymentRef: string | null; code: string; message: string; card: CardDetails | null; processor: string },
  settle?: Settle<void>,
  lease?: string,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await lockConfirmed(trx, checkoutId, lease);
    if (!row) return false;
    const ctx = await contextOf(trx, row);
    const amounts = quoteOf(row);
    if (row.discount_id) {
      await discounts.releaseRedemption(trx, row.discount_id);
    }
    await recordPayment(
      trx,
      Object.assign(paymentBase(row, amounts.total_amount), {
        orderId: null,
        status: "failed" as const,
        methodMetadata: decline.card,
        declineReason: decline.code,
        declineMessage: decline.message,
        processorMetadata: { processor: decline.processor },
        processorRef: decline.paymentRef,
      }),
    );
    const reopen = new Date(row.expires_at).getTime() > Date.now();
    await saveCheckout(
      trx,
      reopen
        ? Object.assign({}, row, {
            status: "open" as const,
            payment_ref: null,
            payment_processor_metadata: {},
            confirmed_at: null,
            confirmation_token_id: null,
          })
        : Object.assign({}, row, { status: "failed" as const, payment_ref: decline.paymentRef }),
      ctx,
    );
    await settle?.(trx);
    return true;
  });
}

/** 3-D Secure and the like: the checkout stays confirmed until the processor's webhook reports the outcome. */
async function awaitAction(
  db: Knex,
  checkoutId: string,
  result: Extract<ConfirmResult, { status: "requires_action" }>,
  { ctx, lease }: Pick<Claimed, "ctx" | "lease">,
  settle?: Settle<Outcome>,
): Promise<Outcome | null> {
  return db.transaction(async (trx) => {
    const row = await lockConfirmed(trx, checkoutId, lease);
    if (!row) return null;
    const customer = await findOrCreateCustomer(trx, row);
    const metadata = { intent_status: "requires_action", ...(result.clientSecret ? { intent_client_secret: result.clientSecret } : {}) };
    const saved = await saveCheckout(
      trx,
      Object.assign({}, row, { customer_id: customer.id, payment_ref: result.paymentRef, payment_processor_metadata: metadata }),
      ctx,
    );
    const outcome = { row: saved, ctx, customerSessionToken: await mintSession(trx, customer.id, row.id) };
    await settle?.(trx, outcome);
    return outcome;
  });
}

/** A claimed checkout: what the charge step needs. */
export interface Claimed {
  row: CheckoutRow;
  ctx: CheckoutContext;
  org: OrganizationRow;
  amounts: Amounts;
  flags: Flags;
  token: string | null;
  /** Which attempt at paying this checkout (1 + the declined ones before it): the processor's keys are per attempt. */
  attempt: number;
  /** The lease the claim (or the recovery) holds on the checkout: its outcome is written only under it. */
  lease: string;
}

/**
 * The attempt a claim starts: a declined attempt recorded a failed payment and reopened the
 * checkout, so the next one is a new charge with idempotency keys of its own.
 */
export async function attemptOf(db: Knex, checkoutId: string): Promise<number> {
  return (await countForCheckout(db, checkoutId)) + 1;
}

/** Where the charge step's outcome is recorded besides the checkout (the request's idempotent answer). */
export interface OutcomeRecorders {
  /** In the transaction that completes the checkout (or leaves it waiting for 3-D Secure). */
  done?: Settle<Outcome>;
  /** In the transaction that fails it, with the refusal the buyer gets. */
  refused?: (err: PaymentError) => Settle<void> | undefined;
}

export async function confirmCheckout(
  db: Knex,
  caller: Caller,
  clientSecret: string,
  input: ConfirmInput,
  journal: AnswerJournal | null = null,
): Promise<CheckoutPublicConfirmedOut> {
  const claimed = await claim(db, clientSecret, input, caller, journal);
  const answer = (o: Outcome) => toCheckoutPublicConfirmed(o.row, o.ctx, claimed.org, o.customerSessionToken);
  // The idempotent answer, written by the transaction that writes the outcome.
  const outcome = await pay(
    db,
    claimed,
    journal
      ? { done: (trx, o) => journal.settle(trx, 200, answer(o)), refused: (err) => (trx) => journal.settle(trx, err.status, err.body()) }
      : {},
  );
  if (!outcome) throw new PaymentError("The checkout changed while it was being confirmed.");
  return answer(outcome);
}

/**
 * The charge step of a claimed checkout, and its outcome: completed (order, payment), failed (a
 * decline; PaymentError thrown), or waiting for the buyer (3-D Secure). Null when the checkout
 * was settled meanwhile by someone else (the processor's webhook), or its lease lapsed and the
 * recovery took it over. The lease is renewed while it runs. With
 * `recovering`, a processor that cannot be reached leaves the checkout confirmed for a later try
 * instead of failing it.
 */
export async function pay(
  db: Knex,
  claimed: Claimed,
  record: OutcomeRecorders,
  opts: { recovering?: boolean } = {},
): Promise<Outcome | null> {
  const { row, amounts, flags } = claimed;
  const processor = getProcessor();
  const key = (step: string) => `checkout:${row.id}:${step}${claimed.attempt > 1 ? `:${claimed.attempt}` : ""}`;
  let outcome: Outcome | null;
  // Once the processor has taken the money, a failure must not mark the checkout failed: it stays
  // confirmed and the processor's webhook (payment_intent.succeeded) or the recovery completes it.
  let charged = false;
  const releaseLease = keepLease(db, row.id, claimed.lease);
  try {
    if (!flags.is_payment_form_required) {
      outcome = await completeCheckout(db, row.id, null, claimed, record.done);
    } else {
      // Everything from here until the outcome is written runs outside any transaction; the
      // checkout is confirmed, so no other confirm can start, and every call is idempotent.
      const customerRef = flags.is_payment_setup_required ? await processorCustomer(db, processor, row) : null;
      if (!flags.is_payment_required) {
        // Nothing to charge now (a trial, a 100% discount on a subscription): only save the method.
        const saved = await processor.savePaymentMethod({
          customerRef: customerRef!,
          confirmationToken: claimed.token!,
          idempotencyKey: key("setup"),
        });
        charged = true;
        outcome = await completeCheckout(
          db,
          row.id,
          {
            processor: processor.name,
            paymentRef: null,
            card: saved.card,
            paymentMethodRef: saved.paymentMethodRef,
            processorCustomerRef: customerRef,
          },
          claimed,
          record.done,
        );
      } else {
        const result = await processor.confirmPayment({
          amount: amounts.total_amount,
          currency: row.currency,
          confirmationToken: claimed.token!,
          customerRef,
          setupFutureUsage: flags.is_payment_setup_required,
          idempotencyKey: key("confirm"),
          metadata: { checkout_id: row.id, organization_id: row.organization_id },
        });
        charged = result.status !== "declined";
        if (result.status === "declined") {
          const declined = new PaymentError(result.message);
          await failCheckout(
            db,
            row.id,
            Object.assign({}, result, { processor: processor.name }),
            record.refused?.(declined),
            claimed.lease,
          );
          throw declined;
        }
        outcome =
          result.status === "succeeded"
            ? await completeCheckout(
                db,
                row.id,
                {
                  processor: processor.name,
                  paymentRef: result.paymentRef,
                  card: result.card,
                  paymentMethodRef: result.paymentMethodRef,
                  processorCustomerRef: customerRef,
                  dispute: result.dispute,
                },
                claimed,
                record.done,
              )
            : await awaitAction(db, row.id, result, claimed, record.done);
      }
    }
  } catch (err) {
    if (err instanceof PaymentError || charged || opts.recovering) throw err;
    if (!tookNothing(err)) {
      // The answer was lost (a timeout, a dropped connection, a 5xx): the processor may have
      // charged. A new card would get a new key and could charge again, so the checkout stays
      // confirmed; once this lease lapses the recovery asks again with the same key.
      logger.warn({ err, checkoutId: row.id }, "checkout confirm lost the processor's answer; the recovery settles it");
      releaseLease();
      await endConfirmLease(db, row.id, claimed.lease);
      throw new PaymentError("Your payment is being confirmed. This page shows the result in a few seconds.");
    }
    // The processor refused the request, or never got it: open again with its discount released,
    // as after a decline.
    logger.error({ err, checkoutId: row.id }, "checkout confirm refused by the processor");
    const failed = new PaymentError("The payment could not be processed. Please try again.");
    const decline = {
      paymentRef: null,
      code: "processor_error",
      message: "The payment could not be processed.",
      card: null,
      processor: processor.name,
    };
    // Not failed by this call: the recovery, holding the lease now, settles it with the processor's answer.
    if (!(await failCheckout(db, row.id, decline, record.refused?.(failed), claimed.lease))) return null;
    throw failed;
  } finally {
    releaseLease();
  }
  return outcome;
}
