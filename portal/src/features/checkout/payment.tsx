// The card form. With the sandbox processor (no STRIPE_SECRET_KEY on the server) it takes the
// sandbox test cards of docs/SANDBOX.md and sends the card number as the confirmation token; with
// Stripe, Stripe's Payment Element (its own chunk, loaded only then) makes a confirmation token.
// Either registers a collector the pay button calls: a token, or null with the errors shown.
import { lazy, Suspense, useEffect, useState } from "react";
import { appConfig } from "../../config.js";
import { Alert, aria, Field, Loading } from "../../ui/components.js";

export interface PaymentCollector {
  /** A confirmation token for the confirm call, or null when the form is not complete (its errors are shown). */
  token(): Promise<string | null>;
  /** Completes a payment the processor wants the buyer to authenticate (3-D Secure). */
  authenticate?(intentClientSecret: string): Promise<{ ok: boolean; message?: string }>;
}

const StripePayment = lazy(() => import("./stripe-payment.js"));

export const SANDBOX_CARDS = [
  { number: "4242 4242 4242 4242", outcome: "succeeds" },
  { number: "4000 0000 0000 0002", outcome: "is declined" },
  { number: "4000 0000 0000 9995", outcome: "is declined: insufficient funds" },
  { number: "4000 0025 0000 3155", outcome: "asks for authentication (3-D Secure)" },
];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const groups = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, "$1 ");

/** What the card is for: a payment of an amount (saved for later too, or not), or only saving it. */
export interface CardIntent {
  /** Minor units to pay now; null to save the card without a payment. */
  amount: number | null;
  currency: string;
  saveForLater: boolean;
}

/** The sandbox's card fields (test cards only). */
export function SandboxCard({ register, declined }: { register: (c: PaymentCollector) => void; declined: string | null }) {
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    register({
      async token() {
        const digits = number.replace(/\D/g, "");
        const next: Record<string, string> = {};
        if (digits.length < 13 || digits.length > 19 || !luhn(digits)) next.number = "Enter a valid card number.";
        const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry.trim());
        const now = new Date();
        if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) next.expiry = "Enter the expiry date as MM / YY.";
        else if (
          2000 + Number(m[2]) < now.getFullYear() ||
          (2000 + Number(m[2]) === now.getFullYear() && Number(m[1]) < now.getMonth() + 1)
        ) {
          next.expiry = "This card has expired.";
        }
        if (!/^\d{3,4}$/.test(cvc.trim())) next.cvc = "Enter the 3 or 4 digit security code.";
        setErrors(next);
        return Object.keys(next).length ? null : digits;
      },
    });
  }, [number, expiry, cvc, register]);

  return (
    <div className="card-form">
      <Alert kind="info" title="Test mode">
        <p>No real card is charged. Use a test card with any future expiry and any CVC:</p>
        <ul className="test-cards">
          {SANDBOX_CARDS.map((c) => (
            <li key={c.number}>
              <code>{c.number}</code> {c.outcome}
            </li>
          ))}
        </ul>
      </Alert>
      <Field label="Card number" required error={errors.number ?? declined ?? undefined}>
        {(ids) => (
          <input
            {...aria(ids)}
            name="cardnumber"
            autoComplete="cc-number"
            inputMode="numeric"
            required
            placeholder="1234 1234 1234 1234"
            value={number}
            onChange={(e) => setNumber(groups(e.target.value.replace(/\D/g, "").slice(0, 19)))}
          />
        )}
      </Field>
      <div className="grid-2">
        <Field label="Expiry (MM / YY)" required error={errors.expiry}>
          {(ids) => (
            <input
              {...aria(ids)}
              name="exp-date"
              autoComplete="cc-exp"
              inputMode="numeric"
              required
              placeholder="MM / YY"
              value={expiry}
              onChange={(e) => {
                const d = e.target.value.replace(/\D/g, "").slice(0, 4);
                setExpiry(d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d);
              }}
            />
          )}
        </Field>
        <Field label="Security code" required error={errors.cvc}>
          {(ids) => (
            <input
              {...aria(ids)}
              name="cvc"
              autoComplete="cc-csc"
              inputMode="numeric"
              required
              placeholder="CVC"
              value={cvc}
              onChange={(e) => setCvc(e.target.value.replace(/\D/g, "").slice(0, 4))}
            />
          )}
        </Field>
      </div>
    </div>
  );
}

/** The card fields of the processor in use: the sandbox's, or Stripe's Payment Element. */
export function CardForm(props: { intent: CardIntent; register: (c: PaymentCollector) => void; declined: string | null }) {
  const config = appConfig();
  if (config.processor === "sandbox") return <SandboxCard register={props.register} declined={props.declined} />;
  if (!config.stripe_publishable_key) {
    return (
      <Alert kind="error" title="Payments are not set up">
        This store takes cards through Stripe, but the server has no STRIPE_PUBLISHABLE_KEY for the payment form.
      </Alert>
    );
  }
  return (
    <Suspense fallback={<Loading label="Loading the payment form…" />}>
      <StripePayment
        publishableKey={config.stripe_publishable_key}
        intent={props.intent}
        register={props.register}
        declined={props.declined}
      />
    </Suspense>
  );
}

export function PaymentForm(props: { intent: CardIntent; register: (c: PaymentCollector) => void; declined: string | null }) {
  return (
    <fieldset className="group">
      <legend>Payment</legend>
      <CardForm {...props} />
    </fieldset>
  );
}
