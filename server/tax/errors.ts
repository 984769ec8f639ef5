// What the tax calculation refuses, with a code its callers map to the contract's error bodies.
// The buyer's to fix (a 4xx): invalid_input, location_incomplete, location_invalid. Ours:
// no_rate, wrong_provider, not_configured, provider_error. Worth retrying: provider_unavailable.
import { ApiError } from "../kit/errors.js";

export type TaxErrorCode =
  | "invalid_input"
  | "location_incomplete"
  /** The provider could not place the buyer's address (Stripe's customer_tax_location_invalid). */
  | "location_invalid"
  | "no_rate"
  | "wrong_provider"
  /** The provider is chosen but not set up (Stripe Tax without STRIPE_SECRET_KEY). */
  | "not_configured"
  /** The provider refused the request, or answered what we cannot use, for a reason not the buyer's (a key, an account, a bug). */
  | "provider_error"
  /** The provider could not answer (down, overloaded, unreachable): the same request may pass later. */
  | "provider_unavailable";

export class TaxError extends Error {
  constructor(
    readonly code: TaxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TaxError";
  }

  /** True when the same request may succeed later (an activity retries it; a checkout asks again). */
  get retryable(): boolean {
    return this.code === "provider_unavailable";
  }
}

/** The provider's own failures (down, a bad key, not set up), as opposed to the buyer's input. */
export function isProviderFailure(err: TaxError): boolean {
  return err.code === "provider_unavailable" || err.code === "provider_error" || err.code === "not_configured";
}

/**
 * A request that needs the tax now while the provider fails: a 503, with Retry-After when asking
 * again may pass. Nothing of the request is saved, so a checkout keeps the quote last shown.
 */
export class TaxUnavailable extends ApiError {
  constructor(readonly reason: TaxError) {
    super(503, "TaxUnavailable", `The tax could not be computed now; nothing was changed. ${reason.message}`);
  }

  override headers(): Record<string, string> {
    return this.reason.retryable ? { "Retry-After": "5" } : {};
  }
}
