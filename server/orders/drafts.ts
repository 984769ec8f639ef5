// Draft orders (orders:create, orders:finalize): an off-session charge of a customer's saved card
// for a one-time fixed-price product, as Polar's. A draft keeps the amounts and tax it was made
// with and has no invoice number. Finalizing claims it (draft → pending, committed), charges the
// card outside any transaction under one idempotency key per attempt, then records the payment:
// paid, numbered and its benefits granted; or back to a draft with the processor's reason (402).
import type { Knex } from "knex";
import type { OpBody } from "../../generated/handlers.js";
import { findReadable as findReadableCustomer, chargeablePaymentMethods } from "../customers/repository.js";
import { checkCustomFieldData } from "../custom-fields/data.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { ApiError, invalid, ResourceNotFound } from "../kit/errors.js";
import { checkMetadata } from "../kit/metadata.js";
import { checkAmount } from "../kit/money.js";
import { emit } from "../kit/outbox.js";
import { findOrganization } from "../organizations/repository.js";
import { recordCharge } from "../payments/service.js";
import { getProcessor } from "../processors/index.js";
import type { ChargeResult } from "../processors/processor.js";
import { isFreePrice } from "../products/models.js";
import { findReadableWithRelations } from "../products/repository.js";
import { taxOrderLines, UntaxableCustomer } from "./lines-tax.js";
import { totalAmount, type OrderOut } from "./models.js";
import { formatInvoiceNumber } from "./numbers.js";
import { findReadable, saveOrder, takeNumber } from "./repository.js";
import { insertOrder, markOrderPaid, readOrder, type OrderDependents } from "./service.js";

export type OrderCreateInput = OpBody<"orders:create">;
export type OrderFinalizeInput = OpBody<"orders:finalize">;

export class OrderNotDraft extends ApiError {
  constructor() {
    super(412, "OrderNotDraft", "The order is not a draft.");
  }
}

export class PaymentFailed extends ApiError {
  constructor(detail: string) {
    super(402, "PaymentFailed", detail);
  }
}

export class PaymentActionRequired extends ApiError {
  constructor() {
    super(402, "PaymentActionRequired", "The card needs the customer's authentication, which an off-session charge cannot ask for.");
  }
}

const NO_PAYMENT_METHOD = "The customer has no saved payment method to charge.";

/** A draft order of `input.product_id` for `input.customer_id`, order.created; nothing is charged. */
export async function createDraftOrder(
  db: Knex,
  caller: OrganizationCaller,
  input: OrderCreateInput,
  dependents: OrderDependents,
): Promise<OrderOut> {
  if (input.organization_id && input.organization_id !== caller.organizationId) {
    throw invalid(
      ["body", "organization_id"],
      "Organization not found or not accessible with this token.",
      "value_error",
      input.organization_id,
    );
  }
  const metadata = checkMetadata(input.metadata);
  const productError = (msg: string) => invalid(["body", "product_id"], msg, "value_error", input.product_id);
  const found = await findReadableWithRelations(db, caller, input.product_id);
  if (!found) throw productError("Product does not exist.");
  const { row: product, relations } = found;
  if (product.recurring_interval) {
    throw productError("Subscription products are not supported by the off-session charge API. Use a one-time product.");
  }
  const statics = relations.prices.filter((p) => !p.is_archived && p.amount_type !== "metered_unit");
  if (statics.length === 0) throw productError("Product has no chargeable static prices.");
  if (statics.some((p) => p.amount_type !== "fixed")) throw productError("Off-session charges only support fixed-price products.");
  const customer = await findReadableCustomer(db, caller, { id: input.customer_id });
  if (!customer) throw invalid(["body", "customer_id"], "Customer does not exist.", "value_error", input.customer_id);
  const org = (await findOrganization(db, caller.organizationId))!;
  const currency = (input.currency ?? org.default_presentment_currency).toLowerCase();
  const price = statics.find((p) => p.price_currency === currency) ?? statics.find((p) => isFreePrice(p) && p.price_currency === null);
  if (!price) {
    const msg =
      input.currency != null
        ? `Product has no price in currency '${currency}'.`
        : `Product is not priced in the organization's default currency ('${currency}'); specify a currency to charge in.`;
    throw invalid(["body", "currency"], msg, "value_error", input.currency ?? null);
  }
  const amount = input.amount ?? Number(price.price_amount);
  if (amount !== 0) checkAmount(amount, ["body", "amount"]);
  const customFieldData = checkCustomFieldData(relations.customFields, {}, input.custom_field_data, { requireAll: false });
  const line = { label: input.description ?? product.name, amount, taxAmount: 0, proration: false, productPriceId: price.id, period: null };
  // Kept as computed now: a draft is never taxed again, so a customer it can't tax is refused.
  const taxed = await taxOrderLines(db, { organizationId: org.id, customer, product, currency, date: new Date() }, [line], 0, {
    strict: true,
  }).catch((err: unknown) => {
    if (!(err instanceof UntaxableCustomer)) throw err;
    throw invalid(
      ["body", "customer_id"],
      "Tax could not be calculated for this order. The customer needs a complete, valid billing address before an off-session charge can be created.",
      "value_error",
      input.customer_id,
    );
  });
  return db.transaction(async (trx) => {
    const { out } = await insertOrder(
      trx,
      {
        draft: true,
        organizationId: org.id,
        customerId: customer.id,
        productId: product.id,
        productPriceId: price.id,
        checkoutId: null,
        subscriptionId: null,
        billingReason: "purchase",
        currency,
        subtotalAmount: taxed.subtotal,
        discountAmount: 0,
        discountId: null,
        taxAmount: taxed.taxAmount,
        items: taxed.items,
        billingName: customer.billing_name ?? customer.name,
        billingAddress: customer.billing_address,
        metadata,
        customFieldData,
        tax: taxed.tax,
      },
      { customers: new Map([[customer.id, customer]]), products: new Map([[product.id, product]]), ...dependents },
    );
    await emit(trx, org.id, "order.created", out);
    return out;
  });
}

/** Charges a draft's customer off-session: the paid order, or 402 with the draft left as it was. */
export async function finalizeOrder(
  db: Knex,
  caller: OrganizationCaller,
  orderId: string,
  input: OrderFinalizeInput | undefined,
  dependents: OrderDependents,
): Promise<OrderOut> {
  const processor = getProcessor();
  // Claimed in its own transaction, so a second finalize sees a pending order and stops (412).
  const { order, method } = await db.transaction(async (trx) => {
    const row = await findReadable(trx, caller, orderId, { forUpdate: true });
    if (!row) throw new ResourceNotFound("Order not found.");
    if (row.status !== "draft") throw new OrderNotDraft();
    const live = () => chargeablePaymentMethods(trx, row.customer_id, processor.name);
    const requested = input?.payment_method_id;
    const chosen = requested
      ? await live().where({ id: requested }).first()
      : await live()
          .orderBy([
            { column: "is_default", order: "desc" },
            { column: "created_at", order: "desc" },
          ])
          .first();
    if (!chosen && totalAmount(row) > 0) throw new PaymentFailed(NO_PAYMENT_METHOD);
    return { order: await saveOrder(trx, row.id, { status: "pending", modified_at: new Date() }), method: chosen };
  });
  const total = totalAmount(order);
  let result: ChargeResult | null = null;
  if (total > 0 && method) {
    try {
      result = await processor.chargeSaved({
        amount: total,
        currency: order.currency,
        customerRef: method.customer_ref,
        paymentMethodRef: method.processor_ref,
        idempotencyKey: `order:${order.id}:finalize:${order.modified_at?.getTime() ?? 0}`,
        metadata: { order_id: order.id, organization_id: order.organization_id },
      });
    } catch (err) {
      // The processor could not be reached: nothing was charged, the merchant may try again.
      await backToDraft(db, order.id);
      throw err;
    }
  }
  const outcome = await db.transaction(async (trx): Promise<{ paid: OrderOut } | { declined: ApiError }> => {
    const locked = await findReadable(trx, caller, order.id, { forUpdate: true });
    if (!locked) throw new ResourceNotFound("Order not found.");
    if (result) {
      await recordCharge(
        trx,
        {
          organizationId: order.organization_id,
          orderId: order.id,
          amount: total,
          currency: order.currency,
          processorMetadata: { processor: processor.name },
          trigger: "purchase",
        },
        result,
      );
    }
    if (result && result.status === "declined") {
      // The failed payment stays recorded: the error is answered once this commits.
      await saveOrder(trx, order.id, { status: "draft", modified_at: new Date() });
      return { declined: result.code === "authentication_required" ? new PaymentActionRequired() : new PaymentFailed(result.message) };
    }
    const org = (await findOrganization(trx, order.organization_id))!;
    const numbered = await saveOrder(trx, order.id, {
      invoice_number: formatInvoiceNumber(org.slug, await takeNumber(trx, order.organization_id, "invoice")),
    });
    const paid = await markOrderPaid(trx, order.id, { locked: Object.assign({}, locked, numbered), reads: dependents });
    return { paid: await readOrder(trx, paid, dependents) };
  });
  if ("declined" in outcome) throw outcome.declined;
  return outcome.paid;
}

async function backToDraft(db: Knex, orderId: string): Promise<void> {
  await db.transaction(async (trx) => {
    await saveOrder(trx, orderId, { status: "draft", modified_at: new Date() });
  });
}
