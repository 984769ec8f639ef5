// The open checkout: summary and totals on one side, the buyer's fields and payment on the other,
// one pay button. Confirm sends the choices the buyer saw (price, amount, the code they applied)
// with the confirmation token; what the server answers decides what shows next. A confirm whose
// answer is lost (an API or database restart) while the checkout is being paid hands over to the
// confirmation page, which follows the payment to its end.
import { useCallback, useEffect, useRef, useState } from "react";
import { checkoutsClientConfirm } from "../../../../generated/client/sdk.gen.js";
import type { CheckoutConfirmStripe, CheckoutPublic, CheckoutPublicConfirmed } from "../../../../generated/client/types.gen.js";
import { publicClient } from "../../api/client.js";
import { ApiFailure, call } from "../../api/errors.js";
import { Alert, Button } from "../../ui/components.js";
import { formatMoney, perInterval, trialLength } from "../../ui/format.js";
import type { Embed } from "./embed.js";
import { AddressFields, BusinessFields, ContactFields, CustomFields } from "./fields.js";
import { PaymentForm, type PaymentCollector } from "./payment.js";
import { fetchCheckout, problemOf, useCheckoutSession, type SessionProblem } from "./session.js";
import { CustomAmount, DiscountCode, PriceChoice, ProductSummary, Totals } from "./summary.js";

/**
 * Whether a confirm that failed left its checkout being paid: its answer lost (no answer, a 5xx)
 * and the checkout not open (or not readable yet: the API restarting), or a refusal (400) while
 * the checkout went on being paid without this request (the recovery took it over).
 */
async function beingPaid(secret: string, err: unknown): Promise<boolean> {
  const lost = !(err instanceof ApiFailure) || err.status === 0 || err.status >= 500;
  if (!lost && !(err instanceof ApiFailure && err.status === 400)) return false;
  const now = await fetchCheckout(secret).catch(() => null);
  if (now === null) return lost;
  return now.status === "confirmed" || now.status === "succeeded";
}

function payLabel(checkout: CheckoutPublic): string {
  if (checkout.trial_end && checkout.active_trial_interval && checkout.active_trial_interval_count) {
    return `Start ${trialLength(checkout.active_trial_interval, checkout.active_trial_interval_count)} free trial`;
  }
  if (!checkout.is_payment_required) return checkout.product.recurring_interval ? "Start subscription" : "Get it for free";
  const amount = formatMoney(checkout.total_amount, checkout.currency);
  const per = perInterval(checkout.product.recurring_interval, checkout.product.recurring_interval_count);
  return checkout.product.recurring_interval ? `Subscribe for ${amount}${per}` : `Pay ${amount}`;
}

/** Why a payment came back failed: the bank's 3-D Secure check, or a decline reported later. */
export type PaymentFailure = "authentication" | "declined";

/** What the buyer reads when a payment came back failed: what happened, and what to do. */
function FailureNotice({ failure }: { failure: PaymentFailure }) {
  return failure === "authentication" ? (
    <Alert kind="error" title="Your bank did not confirm the payment">
      <p>The 3-D Secure check failed or was cancelled, so nothing was charged.</p>
      <p>Pay again and complete the check your bank shows, or use another card.</p>
    </Alert>
  ) : (
    <Alert kind="error" title="Your payment did not go through">
      <p>The card was declined or could not be charged, so nothing was charged.</p>
      <p>Check the card details and pay again, or use another card.</p>
    </Alert>
  );
}

export function CheckoutForm(props: {
  initial: CheckoutPublic;
  /** The last payment of this checkout failed (the confirmation page sent the buyer back). */
  failed?: PaymentFailure | null;
  embed: Embed;
  onProblem: (p: SessionProblem) => void;
  onConfirmed: (confirmed: CheckoutPublicConfirmed, collector: PaymentCollector | null) => void;
  /** The confirm got no answer of its own, but the checkout is being (or was) paid: its confirmation page tells how it ends. */
  onPaying: () => void;
}) {
  const session = useCheckoutSession(props.initial);
  const { checkout } = session;
  const collector = useRef<PaymentCollector | null>(null);
  const register = useCallback((c: PaymentCollector) => (collector.current = c), []);
  const appliedCode = useRef<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [failedBefore, setFailedBefore] = useState(props.failed ?? null);
  const { onProblem } = props;

  useEffect(() => {
    if (session.problem) onProblem(session.problem);
  }, [session.problem, onProblem]);

  const pay = async () => {
    setFailure(null);
    setFailedBefore(null);
    setDeclined(null);
    setConfirming(true);
    try {
      // Changes the buyer just made (a field left by clicking here) go first.
      await session.settled();
      let token: string | null = null;
      if (checkout.is_payment_form_required) {
        token = (await collector.current?.token()) ?? null;
        if (!token) return;
      }
      const current = session.checkout;
      const body: CheckoutConfirmStripe = {
        product_id: current.product_id,
        product_price_id: current.product_price_id,
        ...(current.product_price.amount_type === "custom" ? { amount: current.amount } : {}),
        ...(appliedCode.current && current.discount ? { discount_code: appliedCode.current } : {}),
        ...(token ? { confirmation_token_id: token } : {}),
      };
      const confirmed = await call(checkoutsClientConfirm({ client: publicClient, path: { client_secret: current.client_secret }, body }));
      props.embed.post({ event: "confirmed" });
      props.onConfirmed(confirmed, collector.current);
    } catch (err) {
      if (await beingPaid(checkout.client_secret, err)) {
        props.embed.post({ event: "confirmed" });
        props.onPaying();
        return;
      }
      if (err instanceof ApiFailure && err.status === 400) {
        // A decline: the message by the card; the checkout is open again for another card.
        setDeclined(err.detail);
        await session.reload();
      } else if (err instanceof ApiFailure && err.status === 422) {
        session.setErrors((e) => ({ ...e, ...(Object.keys(err.fields).length ? err.fields : { form: err.detail }) }));
        // The totals may have moved since the buyer looked: show the server's again.
        await session.reload();
      } else {
        const problem = problemOf(err);
        if (problem && problem.kind !== "error") props.onProblem(problem);
        else setFailure(err instanceof ApiFailure ? err.detail : String(err));
      }
    } finally {
      setConfirming(false);
    }
  };

  const org = checkout.organization;
  const errorCount = Object.keys(session.errors).length;
  return (
    <main className={`checkout${props.embed.embedded ? " checkout--embedded" : ""}`}>
      <header className="checkout__header">
        <div className="org">
          {org.avatar_url ? (
            <img className="org__avatar" src={org.avatar_url} alt="" />
          ) : (
            <span className="org__avatar org__avatar--letter" aria-hidden="true">
              {org.name.slice(0, 1)}
            </span>
          )}
          <span className="org__name">{org.name}</span>
        </div>
        {props.embed.embedded ? (
          <Button kind="link" label="Close checkout" onClick={() => props.embed.post({ event: "close" })}>
            ✕
          </Button>
        ) : null}
      </header>
      <h1 className="visually-hidden">Checkout</h1>
      {failedBefore ? (
        <div className="checkout__notice">
          <FailureNotice failure={failedBefore} />
        </div>
      ) : null}
      <div className="checkout__grid">
        <aside className="checkout__summary card" aria-label="Order summary">
          <ProductSummary checkout={checkout} />
          <PriceChoice session={session} />
          <CustomAmount session={session} />
          <DiscountCode session={session} onApplied={(code) => (appliedCode.current = code)} />
          <Totals checkout={checkout} updating={session.pending > 0} />
        </aside>
        <form
          className="checkout__form card"
          noValidate
          aria-label="Your details and payment"
          onSubmit={(e) => {
            e.preventDefault();
            void pay();
          }}
        >
          <ContactFields session={session} />
          <CustomFields session={session} />
          <AddressFields session={session} />
          <BusinessFields session={session} />
          {checkout.is_payment_form_required ? (
            <PaymentForm
              intent={{
                amount: checkout.is_payment_required ? checkout.total_amount : null,
                currency: checkout.currency,
                saveForLater: checkout.is_payment_setup_required,
              }}
              register={register}
              declined={declined}
            />
          ) : null}
          {session.errors.form ? <Alert kind="error">{session.errors.form}</Alert> : null}
          {failure ? (
            <Alert kind="error" title="Something went wrong on our side">
              <p>{failure}</p>
              <p>Nothing was charged. Please try again in a moment.</p>
            </Alert>
          ) : null}
          {errorCount > 0 && !confirming ? (
            <p className="form-summary" role="status">
              {errorCount === 1 ? "One field needs your attention." : `${errorCount} fields need your attention.`}
            </p>
          ) : null}
          <Button type="submit" kind="primary" busy={confirming}>
            {confirming ? "Processing…" : payLabel(checkout)}
          </Button>
          <p className="fineprint">
            {checkout.product.recurring_interval ? "You can cancel any time from the customer portal. " : ""}
            Payments are processed securely. By paying you agree to {org.name}'s terms.
          </p>
        </form>
      </div>
    </main>
  );
}
