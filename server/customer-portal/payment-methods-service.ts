// The portal customer's saved payment methods (cards): list, add through the processor from a
// confirmation token (optionally as the default; a card needing 3-D Secure is answered with the
// setup's client secret, not saved), and delete unless it pays an active subscription.
import type { OpBody } from "../../generated/handlers.js";
import { clockNow } from "../test-clocks/repository.js";
import * as subscriptions from "../subscriptions/repository.js";
import * as orders from "../orders/repository.js";
import { pokeAfterCommit } from "../workflows-door.js";
import type { UnitOfWork } from "../kit/unit-of-work.js";
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import type { CustomerCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import type { ListQuery, Page } from "../kit/pagination.js";
import { PaymentMethodInUseByActiveSubscription } from "../orders/errors.js";
import { getProcessor } from "../processors/index.js";
import type { CardDetails, PaymentProcessor } from "../processors/processor.js";
import { CustomerNotReady } from "./errors.js";
import * as customers from "../customers/repository.js";
import type { PaymentMethodRow } from "../customers/repository.js";
import { listSavedCards, savedCardMetadata, toPaymentMethod, type PaymentMethodOut } from "../customers/saved-cards.js";

type PaymentMethodCreateOut = components["schemas"]["CustomerPaymentMethodCreateResponse"];

export type { PaymentMethodRow };

/** The customer's id at the processor, created once (idempotency key from our customer id). */
export async function ensureProcessorCustomer(trx: Knex.Transaction, processor: PaymentProcessor, customerId: string): Promise<string> {
  const existing = await customers.findProcessorCustomer(trx, customerId, processor.name);
  if (existing) return existing.processor_customer_id;
  const customer = await customers.contactOf(trx, customerId);
  const ref = await processor.createCustomer({
    email: customer.email,
    name: customer.name,
    idempotencyKey: `customer:${customerId}`,
    metadata: { customer_id: customerId },
  });
  await customers.insertProcessorCustomer(trx, customerId, processor.name, ref);
  return (await customers.findProcessorCustomer(trx, customerId, processor.name))!.processor_customer_id;
}

export function listPaymentMethods(db: Knex, caller: CustomerCaller, query: ListQuery): Promise<Page<PaymentMethodOut>> {
  return listSavedCards(db, caller, query, toPaymentMethod);
}

export type PaymentMethodCreateInput = OpBody<"customer_portal:customers:add_payment_method">;

export async function addPaymentMethod(
  uow: UnitOfWork,
  caller: CustomerCaller,
  input: PaymentMethodCreateInput,
  processor: PaymentProcessor = getProcessor(),
): Promise<PaymentMethodCreateOut> {
  return uow.db.transaction(async (trx): Promise<PaymentMethodCreateOut> => {
    // Serializes concurrent adds of one customer, so "one default" holds without a unique-index error.
    await customers.lockCustomer(trx, caller.customerId);
    const customerRef = await ensureProcessorCustomer(trx, processor, caller.customerId);
    const saved = await processor.savePaymentMethod({
      customerRef,
      confirmationToken: input.confirmation_token_id,
      idempotencyKey: `customer:${caller.customerId}:payment-method:${input.confirmation_token_id}`,
    });
    // A card its holder must authenticate first (3-D Secure) is not saved: the answer asks for it.
    if (saved.clientSecret !== null) return { status: "requires_action", client_secret: saved.clientSecret };
    const card = saved.card;
    if (!card)
      throw invalid(
        ["body", "confirmation_token_id"],
        "The confirmation token is not a usable card.",
        "value_error",
        input.confirmation_token_id,
      );
    return keepSavedMethod(uow, trx, caller, { paymentMethodRef: saved.paymentMethodRef, card }, input.set_default);
  });
}

export type PaymentMethodConfirmInput = OpBody<"customer_portal:customers:confirm_payment_method">;

/**
 * Saves the method of a setup addPaymentMethod answered requires_action for, once its holder has
 * authenticated it; a setup still waiting answers requires_action again. Only the customer's own
 * setups: another's, an unknown or a failed one is a 422.
 */
export async function confirmPaymentMethod(
  uow: UnitOfWork,
  caller: CustomerCaller,
  input: PaymentMethodConfirmInput,
  processor: PaymentProcessor = getProcessor(),
): Promise<PaymentMethodCreateOut> {
  return uow.db.transaction(async (trx): Promise<PaymentMethodCreateOut> => {
    await customers.lockCustomer(trx, caller.customerId);
    const account = await customers.findProcessorCustomer(trx, caller.customerId, processor.name);
    if (!account) throw new CustomerNotReady("This customer has no payment method setup to confirm: add a payment method first.");
    const setup = await processor.findSetup(input.setup_intent_id);
    const refused = () => invalid(["body", "setup_intent_id"], "Invalid setup_intent_id.", "value_error", input.setup_intent_id);
    if (!setup || setup.customerRef !== account.processor_customer_id || setup.status === "failed") throw refused();
    if (setup.status === "requires_action" && setup.clientSecret) return { status: "requires_action", client_secret: setup.clientSecret };
    if (setup.status !== "succeeded" || !setup.card || !setup.paymentMethodRef) throw refused();
    return keepSavedMethod(uow, trx, caller, { paymentMethodRef: setup.paymentMethodRef, card: setup.card }, input.set_default);
  });
}

/**
 * Saves the method a setup saved at the processor (a new row, or the one it already has),
 * the default when asked or when it is the customer's first; a past-due subscription pays with it.
 */
async function keepSavedMethod(
  uow: UnitOfWork,
  trx: Knex.Transaction,
  caller: CustomerCaller,
  saved: { paymentMethodRef: string; card: CardDetails },
  setDefault: boolean,
): Promise<PaymentMethodCreateOut> {
  const existing: PaymentMethodRow | undefined = await customers
    .readablePaymentMethods(trx, caller)
    .where({ processor_ref: saved.paymentMethodRef })
    .first();
  const isFirst = !(await customers.readablePaymentMethods(trx, caller).first("id"));
  const makeDefault = setDefault || isFirst;
  if (makeDefault)
    await customers.readablePaymentMethods(trx, caller).where({ is_default: true }).update({ is_default: false, modified_at: new Date() });
  const values = {
    organization_id: caller.organizationId,
    customer_id: caller.customerId,
    processor: "stripe",
    type: "card",
    method_metadata: JSON.stringify(savedCardMetadata(saved.card)),
    processor_ref: saved.paymentMethodRef,
    is_default: makeDefault || (existing?.is_default ?? false),
  };
  const row = existing
    ? await customers.updatePaymentMethod(trx, existing.id, Object.assign({}, values, { modified_at: new Date() }))
    : await customers.insertPaymentMethod(trx, values);
  await retryPastDueWith(uow, trx, caller.customerId, row.id);
  // The method's own fields beside: the clients before 0.49.0 read the answer as the bare method.
  return Object.assign(toPaymentMethod(row), { status: "succeeded" as const, payment_method: toPaymentMethod(row) });
}

/**
 * A new card for a customer whose subscriptions are past due: they pay with it from now on, and
 * their owed payment is retried at once (the lifecycle workflow is poked after commit).
 */
async function retryPastDueWith(uow: UnitOfWork, trx: Knex.Transaction, customerId: string, paymentMethodId: string): Promise<void> {
  const pastDue = await subscriptions.lockPastDueSubscriptions(trx, customerId);
  if (pastDue.length === 0) return;
  await subscriptions.setPaymentMethod(
    trx,
    pastDue.map((s) => s.id),
    paymentMethodId,
  );
  for (const sub of pastDue) {
    await orders.retryOwedOrdersAt(trx, sub.id, await clockNow(trx, sub.test_clock_id), "retry_payment_method_update");
  }
  pokeAfterCommit(
    uow,
    trx,
    pastDue.map((s) => s.id),
  );
}

export async function deletePaymentMethod(db: Knex, caller: CustomerCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row: PaymentMethodRow | undefined = isUuid(id)
      ? await customers.readablePaymentMethods(trx, caller).where({ id }).forUpdate().first()
      : undefined;
    if (!row) throw new ResourceNotFound("Payment method not found.");
    if (await subscriptions.paysLiveSubscription(trx, row.id)) {
      throw new PaymentMethodInUseByActiveSubscription("This payment method pays an active subscription; add another one first.");
    }
    await customers.updatePaymentMethod(trx, row.id, { deleted_at: new Date(), is_default: false, modified_at: new Date() });
  });
}

/**
 * Makes a saved method the customer's default; their live subscriptions are paid with it from now
 * on (so the card it replaces can then be removed).
 */
export async function setDefaultPaymentMethod(db: Knex, caller: CustomerCaller, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    // The customer row lock serializes this with adds and checkouts saving a card: one default.
    await customers.lockCustomer(trx, caller.customerId);
    const row: PaymentMethodRow | undefined = isUuid(id)
      ? await customers.readablePaymentMethods(trx, caller).where({ id }).first()
      : undefined;
    if (!row) throw new ResourceNotFound("Payment method not found.");
    await customers
      .readablePaymentMethods(trx, caller)
      .where({ is_default: true })
      .whereNot({ id: row.id })
      .update({ is_default: false, modified_at: new Date() });
    if (!row.is_default) await customers.updatePaymentMethod(trx, row.id, { is_default: true, modified_at: new Date() });
    await subscriptions.payLiveSubscriptionsWith(trx, caller, row.id);
  });
}
