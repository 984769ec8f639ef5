// The typed errors of subscription changes, in the bodies the contract documents for them.
import { ApiError } from "../kit/errors.js";

export class AlreadyCanceledSubscription extends ApiError {
  constructor(detail = "This subscription is already canceled or will be at the end of the period.") {
    super(403, "AlreadyCanceledSubscription", detail);
  }
}

/** A cycle or a payment of this subscription is in flight; try again in a moment. */
export class SubscriptionLocked extends ApiError {
  constructor(detail = "This subscription is being billed right now. Try again in a moment.") {
    super(409, "SubscriptionLocked", detail);
  }
}
