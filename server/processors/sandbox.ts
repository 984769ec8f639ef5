// The offline processor: deterministic test tokens (docs/SANDBOX.md) so the whole checkout flow
// works without network. Same idempotency contract as Stripe: a key seen before answers the
// result it answered the first time.
import { createHash } from "node:crypto";
import type { CardDetails, ChargeResult, ChargeSavedInput, ConfirmPaymentInput, ConfirmResult, PaymentProcessor } from "./processor.js";

type Outcome = "success" | "generic_decline" | "insufficient_funds" | "requires_action";

/** Test card numbers, as Stripe's test cards behave. */
const CARDS: Record<string, { outcome: Outcome; brand: string }> = {
  "4242424242424242": { outcome: "success", brand: "visa" },
  "5555555555554444": { outcome: "success", brand: "mastercard" },
  "4000000000000002": { outcome: "generic_decline", brand: "visa" },
  "4000000000009995": { outcome: "insufficient_funds", brand: "visa" },
  "4000002500003155": { outcome: "requires_action", brand: "visa" },
};

/** Named tokens map to a card number. */
const NAMED: Record<string, string> = {
  tok_sandbox_success: "4242424242424242",
  tok_sandbox_decline: "4000000000000002",
  tok_sandbox_insufficient_funds: "4000000000009995",
  tok_sandbox_requires_action: "4000002500003155",
};

/** `tok_sandbox_success`, `tok_sandbox_4242424242424242`, or a bare test card number. */
export function parseSandboxToken(token: string): { outcome: Outcome; card: CardDetails } | null {
  const number = NAMED[token] ?? (/^(tok_sandbox_)?(\d{16})$/.exec(token)?.[2] ?? null);
  if (number === null) return null;
  const card = CARDS[number];
  if (!card) return null;
  return { outcome: card.outcome, card: { brand: card.brand, last4: number.slice(-4) } };
}

const ref = (prefix: string, key: string) => `${prefix}_sandbox_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

/**
 * A saved method remembers the test card it was saved with (`pm_sandbox_<card>_<hash>`), so an
 * off-session charge behaves as that card does: a method saved from the decline card is declined
 * at renewal. A method saved with `tok_sandbox_success` renews fine.
 */
const methodRef = (card: string | null, key: string) =>
  card ? `pm_sandbox_${card}_${createHash("sha256").update(key).digest("hex").slice(0, 24)}` : ref("pm", key);
const cardOfMethod = (methodRef: string) => /^pm_sandbox_(\d{16})_/.exec(methodRef)?.[1] ?? "4242424242424242";

const cardNumberOf = (token: string) => NAMED[token] ?? (/^(tok_sandbox_)?(\d{16})$/.exec(token)?.[2] ?? null);

export class SandboxProcessor implements PaymentProcessor {
  readonly name = "sandbox" as const;
  private readonly seen = new Map<string, unknown>();

  private once<T>(key: string, fn: () => T): T {
    if (this.seen.has(key)) return this.seen.get(key) as T;
    const value = fn();
    this.seen.set(key, value);
    return value;
  }

  async createCustomer(input: { idempotencyKey: string }): Promise<string> {
    return ref("cus", input.idempotencyKey);
  }

  async confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmResult> {
    return this.once(`confirm:${input.idempotencyKey}`, (): ConfirmResult => {
      const parsed = parseSandboxToken(input.confirmationToken);
      const paymentRef = ref("pi", input.idempotencyKey);
      if (!parsed) return { status: "declined", paymentRef: null, code: "invalid_token", message: "Unknown sandbox confirmation token.", card: null };
      switch (parsed.outcome) {
        case "success":
          return {
            status: "succeeded",
            paymentRef,
            paymentMethodRef: input.setupFutureUsage ? methodRef(cardNumberOf(input.confirmationToken), input.idempotencyKey) : null,
            card: parsed.card,
          };
        case "generic_decline":
          return { status: "declined", paymentRef, code: "card_declined", message: "Your card was declined.", card: parsed.card };
        case "insufficient_funds":
          return { status: "declined", paymentRef, code: "insufficient_funds", message: "Your card has insufficient funds.", card: parsed.card };
        case "requires_action":
          return { status: "requires_action", paymentRef, clientSecret: `${paymentRef}_secret` };
      }
    });
  }

  async savePaymentMethod(input: { confirmationToken: string; idempotencyKey: string }) {
    const parsed = parseSandboxToken(input.confirmationToken);
    return { paymentMethodRef: methodRef(parsed ? cardNumberOf(input.confirmationToken) : null, input.idempotencyKey), card: parsed?.card ?? null };
  }

  /** Every off-session charge that was really made (one per idempotency key): what tests count. */
  readonly charges: { idempotencyKey: string; amount: number; currency: string; paymentMethodRef: string; status: ChargeResult["status"] }[] = [];

  async chargeSaved(input: ChargeSavedInput): Promise<ChargeResult> {
    return this.once(`charge:${input.idempotencyKey}`, (): ChargeResult => {
      const number = cardOfMethod(input.paymentMethodRef);
      const parsed = parseSandboxToken(number);
      const paymentRef = ref("pi", input.idempotencyKey);
      const card = parsed?.card ?? null;
      let result: ChargeResult;
      switch (parsed?.outcome ?? "success") {
        case "success":
          result = { status: "succeeded", paymentRef, card };
          break;
        case "insufficient_funds":
          result = { status: "declined", paymentRef, code: "insufficient_funds", message: "Your card has insufficient funds.", card };
          break;
        default:
          // A card that needs the buyer (3-D Secure) cannot be charged off-session.
          result = { status: "declined", paymentRef, code: "card_declined", message: "Your card was declined.", card };
      }
      this.charges.push({ idempotencyKey: input.idempotencyKey, amount: input.amount, currency: input.currency, paymentMethodRef: input.paymentMethodRef, status: result.status });
      return result;
    });
  }

  async refund(input: { paymentRef: string; amount: number; idempotencyKey: string }) {
    return this.once(`refund:${input.idempotencyKey}`, () => ({ refundRef: ref("re", input.idempotencyKey), status: "succeeded" as const }));
  }
}
