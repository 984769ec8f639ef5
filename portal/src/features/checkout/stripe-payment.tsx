// Stripe's Payment Element (loaded only when the server has STRIPE_PUBLISHABLE_KEY): the element
// collects the card, createConfirmationToken turns it into the confirmation token the confirm call
// takes, and handleNextAction runs 3-D Secure when the payment asks for it.
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useEffect, useMemo } from "react";
import { Alert } from "../../ui/components.js";
import type { CardIntent, PaymentCollector } from "./payment.js";

const stripes = new Map<string, Promise<Stripe | null>>();

function Collector({ register }: { register: (c: PaymentCollector) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    register({
      async token() {
        if (!stripe || !elements) return null;
        const submitted = await elements.submit();
        if (submitted.error) return null;
        const { error, confirmationToken } = await stripe.createConfirmationToken({ elements });
        if (error || !confirmationToken) return null;
        return confirmationToken.id;
      },
      async authenticate(clientSecret) {
        if (!stripe) return { ok: false, message: "The payment form is not ready." };
        const { error, paymentIntent } = await stripe.handleNextAction({ clientSecret });
        if (error) return { ok: false, message: error.message };
        return { ok: paymentIntent?.status === "succeeded" || paymentIntent?.status === "processing" };
      },
    });
  }, [stripe, elements, register]);
  return <PaymentElement options={{ layout: "tabs" }} />;
}

export default function StripePayment(props: {
  publishableKey: string;
  intent: CardIntent;
  register: (c: PaymentCollector) => void;
  declined: string | null;
}) {
  const { intent } = props;
  let stripe = stripes.get(props.publishableKey);
  if (!stripe) {
    stripe = loadStripe(props.publishableKey);
    stripes.set(props.publishableKey, stripe);
  }
  const options = useMemo(
    () =>
      intent.amount !== null && intent.amount > 0
        ? {
            mode: "payment" as const,
            amount: intent.amount,
            currency: intent.currency,
            paymentMethodCreation: "manual" as const,
            ...(intent.saveForLater ? { setupFutureUsage: "off_session" as const } : {}),
          }
        : { mode: "setup" as const, currency: intent.currency, paymentMethodCreation: "manual" as const },
    [intent.amount, intent.currency, intent.saveForLater],
  );
  return (
    <>
      <Elements stripe={stripe} options={options}>
        <Collector register={props.register} />
      </Elements>
      {props.declined ? <Alert kind="error">{props.declined}</Alert> : null}
    </>
  );
}
