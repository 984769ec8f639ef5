// The payment processor seam: what checkouts, orders and refunds need from a card processor.
// Every call carries an idempotency key built from our own ids, so a retried call never charges
// twice. The sandbox is the default; Stripe is used when STRIPE_SECRET_KEY is set.
/**
 * The processor refused the request itself and took nothing (an invalid request, bad credentials):
 * a definitive answer. Any other error may have come after a charge whose answer was lost.
 */
export class ProcessorRefused extends Error {}

/** Errors raised before a request leaves (no connection, no address): nothing can have been charged. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Whether the processor told us it took nothing, or never got the request. */
export function tookNothing(err: unknown): boolean {
  if (err instanceof ProcessorRefused) return true;
  const e = err as { code?: unknown; cause?: { code?: unknown }; detail?: { code?: unknown } } | null;
  return [e?.code, e?.cause?.code, e?.detail?.code].some((code) => typeof code === "string" && NOT_SENT.has(code));
}

export interface CardDetails {
  brand: string;
  last4: string;
  /** The card's expiry (month 1-12, four-digit year), when the processor reports it. */
  expMonth?: number;
  expYear?: number;
}

/** A dispute's status as we keep it (the processor's own statuses mapped onto these). */
export type DisputeStatus = "prevented" | "early_warning" | "needs_response" | "under_review" | "lost" | "won";

/** A dispute (chargeback) on a payment, as the processor reports it. */
export interface ProcessorDispute {
  /** The processor's id of the dispute. */
  ref: string;
  /** The disputed payment (what a succeeded charge's `paymentRef` was). */
  paymentRef: string;
  status: DisputeStatus;
  /** What the card holder disputes, tax included, in minor units of `currency`. */
  amount: number;
  currency: string;
  reason: string | null;
  /** ISO 8601; null when no response is expected. */
  evidenceDueBy: string | null;
  pastDue: boolean;
}

export type ConfirmResult =
  | {
      status: "succeeded";
      paymentRef: string;
      paymentMethodRef: string | null;
      card: CardDetails | null;
      /** A dispute the processor opened on the charge at once (the sandbox's dispute card). */
      dispute?: ProcessorDispute;
    }
  | { status: "requires_action"; paymentRef: string; clientSecret: string | null }
  | { status: "declined"; paymentRef: string | null; code: string; message: string; card: CardDetails | null };

/**
 * A payment method set up for later charges. `clientSecret` is set when the card needs its holder
 * first (3-D Secure): the method is not usable until they authenticate it with that secret.
 */
export interface SavedMethod {
  paymentMethodRef: string;
  card: CardDetails | null;
  clientSecret: string | null;
}

/** A setup (Stripe's setup intent) as the processor has it now: whose, how far, and the method it saved. */
export interface SetupState {
  customerRef: string | null;
  /** "requires_action": its holder has not authenticated it yet; "failed": it will save nothing. */
  status: "succeeded" | "requires_action" | "failed";
  paymentMethodRef: string | null;
  card: CardDetails | null;
  clientSecret: string | null;
}

export interface ConfirmPaymentInput {
  amount: number;
  currency: string;
  /** A confirmation token (or saved payment method id) from the buyer's payment form. */
  confirmationToken: string;
  /** The processor customer the payment (and a saved method) belongs to. */
  customerRef: string | null;
  /** Save the method for later off-session charges (subscriptions). */
  setupFutureUsage: boolean;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** An off-session charge of a saved payment method (subscription renewals, dunning retries). */
export interface ChargeSavedInput {
  amount: number;
  currency: string;
  customerRef: string | null;
  paymentMethodRef: string;
  /** From the subscription, its period and the attempt: a retried activity never charges twice. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | { status: "succeeded"; paymentRef: string; card: CardDetails | null }
  | { status: "declined"; paymentRef: string | null; code: string; message: string; card: CardDetails | null };

export interface PaymentProcessor {
  readonly name: "stripe" | "sandbox";
  createCustomer(input: { email: string; name: string | null; idempotencyKey: string; metadata: Record<string, string> }): Promise<string>;
  confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmResult>;
  savePaymentMethod(input: { customerRef: string; confirmationToken: string; idempotencyKey: string }): Promise<SavedMethod>;
  /** A setup savePaymentMethod started (its ref: the client secret's prefix), null when the processor knows none. */
  findSetup(setupRef: string): Promise<SetupState | null>;
  chargeSaved(input: ChargeSavedInput): Promise<ChargeResult>;
  refund(input: {
    paymentRef: string;
    amount: number;
    idempotencyKey: string;
  }): Promise<{ refundRef: string; status: "succeeded" | "pending" | "failed" }>;
  /** Concedes a dispute: the processor closes it as lost and answers its status. */
  closeDispute(input: { disputeRef: string; idempotencyKey: string }): Promise<{ status: DisputeStatus }>;
}
