// The portal customer's orders: reads, billing details, invoices (same rules as the merchant's),
// the payment status, and the retry of a failed payment on a pending order (one attempt at a
// time: the order row stays locked while the processor answers).
import type { OpBody } from "../../generated/handlers.js";
import type { Knex } from "knex";
import { customerScope, type CustomerCaller } from "../kit/auth.js";
import { ResourceNotFound } from "../kit/errors.js";
import { isUuid } from "../kit/ids.js";
import { OrderNotEligibleForRetry, PaymentAlreadyInProgress } from "../orders/errors.js";
import { totalAmount } from "../orders/models.js";
import { findReadable, type OrderScope } from "../orders/repository.js";
import { markOrderPaid } from "../orders/service.js";
import { countForOrder, latestForOrder } from "../payments/repository.js";
import { findLivePaymentMethod } from "../customers/repository.js";
import { recordPayment } from "../payments/service.js";
import { getProcessor } from "../processors/index.js";
import type { PaymentProcessor } from "../processors/processor.js";
import { orderDependents } from "../subscriptions/repository.js";
import { ensureProcessorCustomer } from "./payment-methods-service.js";

export function portalScope(caller: CustomerCaller): OrderScope {
  return customerScope(caller, "orders");
}

export async function getOrderPaymentStatus(
  db: Knex,
  caller: CustomerCaller,
  orderId: string,
): Promise<{ status: string; error: string | null }> {
  const order = await findReadable(db, portalScope(caller), orderId);
  if (!order) throw new ResourceNotFound("Order not found.");
  const payment = await latestForOrder(db, order.id);
  if (!payment) return { status: order.status === "pending" ? "no_payment" : "succeeded", error: null };
  return {
    status: payment.status,
    error: payment.status === "failed" ? (payment.decline_message ?? payment.decline_reason ?? "The payment failed.") : null,
  };
}

export type ConfirmRetryInput = OpBody<"customer_portal:orders:confirm_retry_payment">;

export interface PaymentConfirmation {
  status: string;
  client_secret: string | null;
  error: string | null;
}

/** Pays a pending order again with a new card (confirmation token) or a saved payment method. */
export async function confirmRetryPayment(
  db: Knex,
  caller: CustomerCaller,
  orderId: string,
  input: ConfirmRetryInput,
  processor: PaymentProcessor = getProcessor(),
): Promise<PaymentConfirmation> {
  const token = input.confirmation_token_id ?? null;
  const methodId = input.payment_method_id ?? null;
  return db.transaction(async (trx) => {
    const order = await findReadable(trx, portalScope(caller), orderId, { forUpdate: true });
    if (!order) throw new ResourceNotFound("Order not found.");
    const last = await latestForOrder(trx, order.id);
    if (last?.status === "pending") throw new PaymentAlreadyInProgress("A payment is already in progress for this order.");
    if (order.status !== "pending" || totalAmount(order) <= 0) {
      throw new OrderNotEligibleForRetry("Only an unpaid order with an amount due can be paid again.");
    }
    // The operation's only 422 body is OrderNotEligibleForRetry: a retry without a usable card is answered with it.
    if ((token === null) === (methodId === null)) {
      throw new OrderNotEligibleForRetry("Give exactly one of confirmation_token_id or payment_method_id.");
    }
    let confirmationToken = token;
    if (methodId !== null) {
      const method = isUuid(methodId) ? await findLivePaymentMethod(trx, caller.customerId, methodId) : undefined;
      if (!method) throw new OrderNotEligibleForRetry("The payment method was not found.");
      confirmationToken = method.processor_ref;
    }
    const customerRef = await ensureProcessorCustomer(trx, processor, caller.customerId);
    const attempt = (await countForOrder(trx, order.id)) + 1;
    const result = await processor.confirmPayment({
      amount: totalAmount(order),
      currency: order.currency,
      confirmationToken: confirmationToken!,
      customerRef,
      setupFutureUsage: false,
      idempotencyKey: `order:${order.id}:payment:${attempt}`,
      metadata: { order_id: order.id },
    });
    const base = {
      organizationId: order.organization_id,
      orderId: order.id,
      checkoutId: order.checkout_id,
      processor: "stripe" as const,
      amount: totalAmount(order),
      currency: order.currency,
      method: "card" as const,
      processorMetadata: {},
      trigger: "retry_customer" as const,
    };
    switch (result.status) {
      case "succeeded":
        await recordPayment(
          trx,
          Object.assign(base, {
            status: "succeeded" as const,
            methodMetadata: result.card,
            declineReason: null,
            declineMessage: null,
            processorRef: result.paymentRef,
          }),
        );
        await markOrderPaid(trx, order.id, { reads: orderDependents });
        return { status: "succeeded", client_secret: null, error: null };
      case "requires_action":
        await recordPayment(
          trx,
          Object.assign(base, {
            status: "pending" as const,
            methodMetadata: null,
            declineReason: null,
            declineMessage: null,
            processorRef: result.paymentRef,
          }),
        );
        return { status: "requires_action", client_secret: result.clientSecret, error: null };
      case "declined":
        await recordPayment(
          trx,
          Object.assign(base, {
            status: "failed" as const,
            methodMetadata: result.card,
            declineReason: result.code,
            declineMessage: result.message,
            processorRef: result.paymentRef,
          }),
        );
        return { status: "failed", client_secret: null, error: result.message };
    }
  });
}
