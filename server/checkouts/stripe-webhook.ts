// Stripe webhooks (outside the contract): a payment intent's outcome completes or fails its checkout;
// a charge.dispute.* event opens or moves the dispute on the order the charge paid.
// The signature is verified on the raw body with stripe.webhooks.constructEvent; each event is
// applied once (processed_events records it in the transaction that applies it, so a replay or a
// concurrent redelivery is a no-op). It lives with checkouts, which pay through processors/.
import type { FastifyInstance } from "fastify";
import type { Knex } from "knex";
import Stripe from "stripe";
import { setting } from "../config.js";
import { logger } from "../kit/logger.js";
import { getProcessor } from "../processors/index.js";
import type { CardDetails } from "../processors/processor.js";
import { insertProcessed, isProcessed } from "../processors/repository.js";
import { disputeFromStripe, StripeProcessor } from "../processors/stripe.js";
import { applyProcessorDispute } from "../disputes/service.js";
import { UnitOfWork } from "../kit/unit-of-work.js";
import { completeCheckout, failCheckout } from "./confirm.js";

/** Marks the event processed; false when it already was. */
export async function markProcessed(knex: Knex, event: { id: string; type: string }): Promise<boolean> {
  return insertProcessed(knex, "stripe", event);
}

/** Brand and last4 of the intent's card: from the event when expanded, else asked of Stripe when configured. */
async function cardOfIntent(intent: Stripe.PaymentIntent): Promise<CardDetails | null> {
  const pm = intent.payment_method;
  if (pm && typeof pm !== "string") return pm.card ? { brand: pm.card.brand, last4: pm.card.last4 } : null;
  const processor = getProcessor();
  if (!pm || !(processor instanceof StripeProcessor)) return null;
  try {
    const method = await processor.client.paymentMethods.retrieve(pm);
    return method.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
  } catch (err) {
    logger.warn({ err, paymentIntent: intent.id }, "could not read the card of a payment intent");
    return null;
  }
}

async function apply(knex: Knex, event: Stripe.Event): Promise<void> {
  if (
    event.type === "charge.dispute.created" ||
    event.type === "charge.dispute.updated" ||
    event.type === "charge.dispute.closed" ||
    event.type === "charge.dispute.funds_withdrawn" ||
    event.type === "charge.dispute.funds_reinstated"
  ) {
    const dispute = disputeFromStripe(event.data.object);
    if (dispute) await knex.transaction((trx) => applyProcessorDispute(new UnitOfWork(knex), trx, "stripe", dispute));
    return;
  }
  if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed") return;
  const intent = event.data.object as Stripe.PaymentIntent;
  const checkoutId = intent.metadata?.checkout_id;
  if (!checkoutId) return;
  if (event.type === "payment_intent.succeeded") {
    await completeCheckout(knex, checkoutId, { paymentRef: intent.id, card: await cardOfIntent(intent), processor: "stripe" });
  } else {
    const err = intent.last_payment_error;
    await failCheckout(knex, checkoutId, {
      paymentRef: intent.id,
      code: err?.decline_code ?? err?.code ?? "payment_failed",
      message: err?.message ?? "The payment failed.",
      card: null,
      processor: "stripe",
    });
  }
}

export function stripeWebhookRoutes(knex: Knex, opts: { secret?: string } = {}) {
  const stripe = new Stripe(setting("STRIPE_SECRET_KEY") ?? "sk_test_unused");
  return async (app: FastifyInstance) => {
    // Verified on the raw body, whatever its content type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    app.post("/v1/integrations/stripe/webhook", async (req, reply) => {
      const secret = opts.secret ?? setting("STRIPE_WEBHOOK_SECRET");
      if (!secret) return reply.code(503).send({ error: "NotConfigured", detail: "Stripe webhooks are not configured." });
      let event: Stripe.Event;
      try {
        const signature = req.headers["stripe-signature"];
        event = stripe.webhooks.constructEvent(
          (req.body as Buffer | undefined) ?? "",
          typeof signature === "string" ? signature : "",
          secret,
        );
      } catch (err) {
        logger.warn({ err: (err as Error).message }, "stripe webhook rejected");
        return reply.code(400).send({ error: "InvalidSignature", detail: "The Stripe signature does not verify." });
      }
      // Applied before it is marked: a crash in between gets the event again, and applying is idempotent.
      const fresh = !(await isProcessed(knex, "stripe", event.id));
      if (fresh) {
        await apply(knex, event);
        await markProcessed(knex, event);
      }
      return reply.code(200).send({ received: true, duplicate: !fresh });
    });
  };
}
