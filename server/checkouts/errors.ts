// The typed errors of the checkout flow, in the bodies the contract documents for them.
import { ApiError } from "../kit/errors.js";

export class NotOpenCheckout extends ApiError {
  constructor(detail = "This checkout is not open.") {
    super(403, "NotOpenCheckout", detail);
  }
}

export class ExpiredCheckoutError extends ApiError {
  constructor(detail = "This checkout session has expired.") {
    super(410, "ExpiredCheckoutError", detail);
  }
}

export class PaymentError extends ApiError {
  constructor(detail: string) {
    super(400, "PaymentError", detail);
  }
}

export class AlreadyActiveSubscriptionError extends ApiError {
  constructor(detail = "You already have an active subscription.") {
    super(403, "AlreadyActiveSubscriptionError", detail);
  }
}

export class PaymentNotReady extends ApiError {
  constructor(detail = "This organization is not ready to accept payments.") {
    super(403, "PaymentNotReady", detail);
  }
}
