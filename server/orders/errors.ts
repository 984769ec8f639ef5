// Typed errors of orders, invoices, refunds, order payment retries and saved payment methods,
// each rendered as the `{error, detail}` body the contract declares for it.
import { ApiError } from "../kit/errors.js";

export class InvoiceAlreadyExists extends ApiError {
  constructor(detail = "An invoice already exists for this order.") {
    super(409, "InvoiceAlreadyExists", detail);
  }
}

export class MissingInvoiceBillingDetails extends ApiError {
  constructor(detail = "Billing name and address are required to generate an invoice.") {
    super(422, "MissingInvoiceBillingDetails", detail);
  }
}

export class NotPaidOrder extends ApiError {
  constructor(detail = "The order is not paid.") {
    super(422, "NotPaidOrder", detail);
  }
}

export class RefundAmountTooHigh extends ApiError {
  constructor(detail = "The refund amount exceeds what is left to refund on this order.") {
    super(400, "RefundAmountTooHigh", detail);
  }
}

export class RefundedAlready extends ApiError {
  constructor(detail = "The order is already fully refunded.") {
    super(403, "RefundedAlready", detail);
  }
}

export class RefundDisputedPayment extends ApiError {
  constructor(detail = "The order's payment is disputed: it can't be refunded.") {
    super(403, "RefundDisputedPayment", detail);
  }
}

export class PaymentAlreadyInProgress extends ApiError {
  constructor(detail = "A payment is already in progress for this order.") {
    super(409, "PaymentAlreadyInProgress", detail);
  }
}

export class OrderNotEligibleForRetry extends ApiError {
  constructor(detail = "This order is not eligible for a payment retry.") {
    super(422, "OrderNotEligibleForRetry", detail);
  }
}

export class PaymentMethodInUseByActiveSubscription extends ApiError {
  constructor(detail = "This payment method pays an active subscription.") {
    super(400, "PaymentMethodInUseByActiveSubscription", detail);
  }
}
