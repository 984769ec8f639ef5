// Stripe behind the PaymentProcessor seam: customers, payment intents confirmed with
// confirmation tokens, saved payment methods, refunds, disputes. Every call carries an idempotency key
// built from our ids, so a retry after a timeout never charges twice.
import Stripe from "stripe";
import {
  ProcessorRefused,
  type CardDetails,
  type ChargeResult,
  type ChargeSavedInput,
  type ConfirmPaymentInput,
  type ConfirmResult,
  type DisputeStatus,
  type PaymentProcessor,
  type ProcessorDispute,
  type SetupState,
} from "./processor.js";

export interface StripeOptions {
  /** stripe-mock in tests: host, port, protocol "http". */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

function cardOf(pm: Stripe.PaymentMethod | string | null | undefined): CardDetails | null {
  if (!pm || typeof pm === "string" || !pm.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/** Stripe's dispute statuses in ours: the early-warning ones (inquiries) as the dispute they may become. */
export function disputeStatusOf(status: Stripe.Dispute.Status): DisputeStatus {
  switch (status) {
    case "lost":
      return "lost";
    case "won":
      return "won";
    case "needs_response":
    case "warning_needs_response":
      return "needs_response";
    case "under_review":
    case "warning_under_review":
      return "under_review";
    case "warning_closed":
      return "prevented";
  }
}

/** What disputeFromStripe reads of a Stripe dispute. */
export type StripeDisputeFields = Pick<Stripe.Dispute, "id" | "status" | "amount" | "currency" | "reason"> & {
  payment_intent: string | Pick<Stripe.PaymentIntent, "id"> | null;
  evidence_details?: Pick<Stripe.Dispute.EvidenceDetails, "due_by" | "past_due">;
};

/** A Stripe dispute as the processor seam reports it; null when it names no payment intent (a charge made outside our checkouts). */
export function disputeFromStripe(dispute: StripeDisputeFields): ProcessorDispute | null {
  const intent = dispute.payment_intent;
  const paymentRef = typeof intent === "string" ? intent : (intent?.id ?? null);
  if (!paymentRef) return null;
  const dueBy = dispute.evidence_details?.due_by;
  return {
    ref: dispute.id,
    paymentRef,
    status: disputeStatusOf(dispute.status),
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason ?? null,
    evidenceDueBy: dueBy ? new Date(dueBy * 1000).toISOString() : null,
    pastDue: dispute.evidence_details?.past_due ?? false,
  };
}

type Declined = Extract<ConfirmResult, { status: "declined" }>;

/** A payment intent that ended without the money: why, in our terms. */
function declinedIntent(intent: Stripe.PaymentIntent): Declined {
  const err = intent.last_payment_error;
  return {
    status: "declined",
    paymentRef: intent.id,
    code: err?.decline_code ?? err?.code ?? intent.status,
    message: err?.message ?? "The payment was not completed.",
    card: cardOf(intent.payment_method),
  };
}

/** Stripe's 4xx answers other than a card error: it refused the request and charged nothing. */
function refusedOr(err: unknown): unknown {
  const refused =
    err instanceof Stripe.errors.StripeInvalidRequestError ||
    err instanceof Stripe.errors.StripeAuthenticationError ||
    err instanceof Stripe.errors.StripePermissionError ||
    err instanceof Stripe.errors.StripeIdempotencyError;
  return refused ? new ProcessorRefused(err.message) : err;
}

function declinedCard(err: Stripe.errors.StripeCardError): Declined {
  return {
    status: "declined",
    paymentRef: err.payment_intent?.id ?? null,
    code: err.decline_code ?? err.code ?? "card_declined",
    message: err.message,
    card: null,
  };
}

export class StripeProcessor implements PaymentProcessor {
  readonly name = "stripe" as const;
  readonly client: Stripe;

  constructor(secretKey: string, opts: StripeOptions = {}) {
    this.client = new Stripe(secretKey, { maxNetworkRetries: 2, ...opts });
  }

  async createCustomer(input: { email: string; name: string | null; idempotencyKey: string; metadata: Record<string, string> }) {
    const customer = await this.client.customers.create(
      { email: input.email, name: input.name ?? undefined, metadata: input.metadata },
      { idempotencyKey: input.idempotencyKey },
    );
    return customer.id;
  }

  async confirmPayment(input: ConfirmPaymentInput): Promise<ConfirmResult> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          confirm: true,
          confirmation_token: input.confirmationToken,
          customer: input.customerRef ?? undefined,
          setup_future_usage: input.setupFutureUsage ? "off_session" : undefined,
          metadata: input.metadata,
          expand: ["payment_method"],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const methodRef = typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);
      if (intent.status === "succeeded" || intent.status === "processing") {
        return { status: "succeeded", paymentRef: intent.id, paymentMethodRef: methodRef, card: cardOf(intent.payment_method) };
      }
      if (intent.status === "requires_action")
        return { status: "requires_action", paymentRef: intent.id, clientSecret: intent.client_secret };
      return declinedIntent(intent);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) return declinedCard(err);
      throw refusedOr(err);
    }
  }

  async savePaymentMethod(input: { customerRef: string; confirmationToken: string; idempotencyKey: string }) {
    const setup = await this.client.setupIntents.create(
      {
        customer: input.customerRef,
        confirm: true,
        confirmation_token: input.confirmationToken,
        usage: "off_session",
        expand: ["payment_method"],
      },
      { idempotencyKey: input.idempotencyKey },
    );
    const pm = setup.payment_method;
    const clientSecret = setup.status === "requires_action" ? setup.client_secret : null;
    return { paymentMethodRef: typeof pm === "string" ? pm : (pm?.id ?? ""), card: cardOf(pm), clientSecret };
  }

  async findSetup(setupRef: string): Promise<SetupState | null> {
    try {
      const setup = await this.client.setupIntents.retrieve(setupRef, { expand: ["payment_method"] });
      const pm = setup.payment_method;
      return {
        customerRef: typeof setup.customer === "string" ? setup.customer : (setup.customer?.id ?? null),
        status: setup.status === "succeeded" || setup.status === "requires_action" ? setup.status : "failed",
        paymentMethodRef: typeof pm === "string" ? pm : (pm?.id ?? null),
        card: cardOf(pm),
        clientSecret: setup.client_secret,
      };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw err;
    }
  }

  /** Off-session: the customer is not there, so a card that needs action is a decline. */
  async chargeSaved(input: ChargeSavedInput): Promise<ChargeResult> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer: input.customerRef ?? undefined,
          payment_method: input.paymentMethodRef,
          off_session: true,
          confirm: true,
          metadata: input.metadata,
          expand: ["payment_method"],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === "succeeded" || intent.status === "processing") {
        return { status: "succeeded", paymentRef: intent.id, card: cardOf(intent.payment_method) };
      }
      return declinedIntent(intent);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) return declinedCard(err);
      throw refusedOr(err);
    }
  }

  async refund(input: { paymentRef: string; amount: number; idempotencyKey: string }) {
    const refund = await this.client.refunds.create(
      { payment_intent: input.paymentRef, amount: input.amount },
      { idempotencyKey: input.idempotencyKey },
    );
    const status =
      refund.status === "succeeded" ? "succeeded" : refund.status === "failed" || refund.status === "canceled" ? "failed" : "pending";
    return { refundRef: refund.id, status: status as "succeeded" | "pending" | "failed" };
  }

  async closeDispute(input: { disputeRef: string; idempotencyKey: string }) {
    try {
      const dispute = await this.client.disputes.close(input.disputeRef, {}, { idempotencyKey: input.idempotencyKey });
      return { status: disputeStatusOf(dispute.status) };
    } catch (err) {
      throw refusedOr(err);
    }
  }
}
