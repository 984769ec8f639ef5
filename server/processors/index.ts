// The process's payment processor: Stripe when STRIPE_SECRET_KEY is set, else the sandbox.
// Tests may swap it (setProcessor) to exercise an adapter against stripe-mock.
import { setting } from "../config.js";
import type { PaymentProcessor } from "./processor.js";
import { SandboxProcessor } from "./sandbox.js";
import { StripeProcessor } from "./stripe.js";

let current: PaymentProcessor | null = null;

export function getProcessor(): PaymentProcessor {
  if (!current) {
    const key = setting("STRIPE_SECRET_KEY");
    current = key ? new StripeProcessor(key) : new SandboxProcessor();
  }
  return current;
}

/** Whether payments are real: Stripe with a live secret (or restricted) key, not its test mode or the sandbox. */
export function processorIsLive(): boolean {
  return /^(sk|rk)_live_/.test(setting("STRIPE_SECRET_KEY") ?? "");
}

export function setProcessor(processor: PaymentProcessor | null): void {
  current = processor;
}
