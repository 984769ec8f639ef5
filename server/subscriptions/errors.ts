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

/** The organization does not let customers change their seats in the portal. */
export class UpdateSubscriptionSeatsNotAllowed extends ApiError {
  constructor() {
    super(403, "UpdateSubscriptionSeatsNotAllowed", "Updating subscription seats is not allowed.");
  }
}

/** The organization does not let customers change their plan in the portal. */
export class UpdateSubscriptionPlanNotAllowed extends ApiError {
  constructor() {
    super(403, "UpdateSubscriptionPlanNotAllowed", "Updating subscription plan is not allowed.");
  }
}

/** A portal pause or resume: no organization here lets customers pause (`customer_portal_settings.subscription.pause` is always off). */
export class PauseResumeNotAllowed extends ApiError {
  constructor() {
    super(403, "PauseResumeNotAllowed", "Pausing or resuming a subscription is not allowed.");
  }
}

/** A seat count change on a subscription with no seat-based price. */
export class NotASeatBasedSubscription extends ApiError {
  constructor() {
    super(400, "NotASeatBasedSubscription", "This subscription does not support seat-based pricing.");
  }
}

export class BelowMinimumSeats extends ApiError {
  constructor(minimum: number) {
    super(400, "BelowMinimumSeats", `Minimum ${minimum} seats required.`);
  }
}

export class AboveMaximumSeats extends ApiError {
  constructor(maximum: number) {
    super(400, "AboveMaximumSeats", `Maximum ${maximum} seats allowed.`);
  }
}

/** Fewer seats than are handed out (pending or claimed): the holders' seats are revoked first. */
export class SeatsAlreadyAssigned extends ApiError {
  constructor(assigned: number, requested: number) {
    super(
      400,
      "SeatsAlreadyAssigned",
      `Cannot decrease seats to ${requested}. Currently ${assigned} seats are assigned. Revoke seats first.`,
    );
  }
}
