// Subscriptions: each with its plan, price, status and next renewal; change plan with the
// server's proration preview first, cancel at the end of the period with a reason, or keep it
// after all (uncancel).
import { useState } from "react";
import {
  customerPortalSubscriptionsGet,
  customerPortalSubscriptionsList,
  customerPortalSubscriptionsPreviewUpdate,
  customerPortalSubscriptionsUpdate,
} from "../../../../generated/client/sdk.gen.js";
import type {
  CustomerCancellationReason,
  CustomerSubscription,
  CustomerSubscriptionChangePreview,
} from "../../../../generated/client/types.gen.js";
import { ApiFailure, call } from "../../api/errors.js";
import { Alert, aria, Button, Field, Loading } from "../../ui/components.js";
import { formatDate, formatMoney, perInterval } from "../../ui/format.js";
import { usePortal } from "./context.js";
import { useLoad } from "./data.js";
import { useLocation } from "../../router.js";
import { Failed, Opened } from "./layout.js";

const REASONS: { value: CustomerCancellationReason; label: string }[] = [
  { value: "too_expensive", label: "It's too expensive" },
  { value: "missing_features", label: "It's missing features I need" },
  { value: "switched_service", label: "I'm switching to another service" },
  { value: "unused", label: "I don't use it enough" },
  { value: "customer_service", label: "Customer service was not good enough" },
  { value: "low_quality", label: "Quality was lower than expected" },
  { value: "too_complex", label: "It's too complicated" },
  { value: "other", label: "Another reason" },
];

function ChangePlan({ sub, onChanged }: { sub: CustomerSubscription; onChanged: (s: CustomerSubscription) => void }) {
  const { client, storefront } = usePortal();
  const options = storefront.products.filter(
    (p) =>
      p.is_recurring &&
      !p.is_archived &&
      p.id !== sub.product_id &&
      p.prices.some(
        (pr) =>
          !pr.is_archived &&
          pr.amount_type !== "metered_unit" &&
          ((pr.amount_type === "fixed" && pr.price_amount === 0) || pr.price_currency === sub.currency),
      ),
  );
  const [productId, setProductId] = useState("");
  const [preview, setPreview] = useState<CustomerSubscriptionChangePreview | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (!storefront.organization.subscription_settings.allow_customer_updates || options.length === 0) return null;
  const choose = async (id: string) => {
    setProductId(id);
    setPreview(null);
    setError(undefined);
    if (!id) return;
    try {
      setPreview(await call(customerPortalSubscriptionsPreviewUpdate({ client, path: { id: sub.id }, query: { product_id: id } })));
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.fields.product_id ?? err.detail) : String(err));
    }
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onChanged(await call(customerPortalSubscriptionsUpdate({ client, path: { id: sub.id }, body: { product_id: productId } })));
      setProductId("");
      setPreview(null);
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.fields.product_id ?? err.detail) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="change-plan">
      <Field label="Change plan" error={error}>
        {(ids) => (
          <select {...aria(ids)} value={productId} onChange={(e) => void choose(e.target.value)}>
            <option value="">Choose another plan…</option>
            {options.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {preview ? (
        <div className="card preview" aria-live="polite">
          <h4>What changes</h4>
          <table className="table">
            <caption className="visually-hidden">Proration of the plan change</caption>
            <tbody>
              {preview.lines.map((l) => (
                <tr key={l.label}>
                  <th scope="row">{l.label}</th>
                  <td className="num">{formatMoney(l.amount, preview.currency)}</td>
                </tr>
              ))}
              <tr className="table__total">
                <th scope="row">
                  {preview.due_now > 0
                    ? "Charged now"
                    : preview.net_amount < 0
                      ? "Credit on your next invoice"
                      : "Added to your next invoice"}
                </th>
                <td className="num" data-testid="proration-net">
                  {formatMoney(Math.abs(preview.due_now > 0 ? preview.due_now : preview.net_amount), preview.currency)}
                </td>
              </tr>
            </tbody>
          </table>
          <p>
            Then{" "}
            <strong data-testid="new-amount">
              {formatMoney(preview.amount, preview.currency)}
              {perInterval(preview.recurring_interval)}
            </strong>
            {preview.next_renewal_at ? <>, from {formatDate(preview.next_renewal_at)}</> : null}.
          </p>
          <div className="actions">
            <Button kind="primary" busy={busy} onClick={() => void confirm()}>
              Confirm plan change
            </Button>
            <Button onClick={() => void choose("")}>Keep my plan</Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Cancel({ sub, onChanged }: { sub: CustomerSubscription; onChanged: (s: CustomerSubscription) => void }) {
  const { client } = usePortal();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<CustomerCancellationReason | "">("");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (cancel: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const body = cancel
        ? { cancel_at_period_end: true, cancellation_reason: reason || null, cancellation_comment: comment.trim() || null }
        : { cancel_at_period_end: false };
      onChanged(await call(customerPortalSubscriptionsUpdate({ client, path: { id: sub.id }, body })));
      setOpen(false);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.detail : String(err));
    } finally {
      setBusy(false);
    }
  };
  if (sub.cancel_at_period_end) {
    return (
      <div>
        <Alert kind="warning">Cancels on {formatDate(sub.ends_at ?? sub.current_period_end)}. You keep access until then.</Alert>
        {error ? <Alert kind="error">{error}</Alert> : null}
        <Button kind="primary" busy={busy} onClick={() => void send(false)}>
          Keep my subscription
        </Button>
      </div>
    );
  }
  if (!open) {
    return (
      <Button kind="danger" onClick={() => setOpen(true)}>
        Cancel subscription
      </Button>
    );
  }
  return (
    <form
      className="card cancel-form"
      aria-label={`Cancel ${sub.product.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send(true);
      }}
    >
      {sub.status === "trialing" ? (
        <p>
          Your free trial stays on until <strong>{formatDate(sub.current_period_end)}</strong>, then ends. You won't be charged.
        </p>
      ) : (
        <p>
          Your subscription stays active until <strong>{formatDate(sub.current_period_end)}</strong>, then ends. You won't be charged again.
        </p>
      )}
      <Field label="Why are you cancelling?">
        {(ids) => (
          <select {...aria(ids)} value={reason} onChange={(e) => setReason(REASONS.find((r) => r.value === e.target.value)?.value ?? "")}>
            <option value="">Prefer not to say</option>
            {REASONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Anything we could do better? (optional)">
        {(ids) => <textarea {...aria(ids)} rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />}
      </Field>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <div className="actions">
        <Button type="submit" kind="danger" busy={busy}>
          Cancel at period end
        </Button>
        <Button onClick={() => setOpen(false)}>Never mind</Button>
      </div>
    </form>
  );
}

/** What the card's badge says: a trial as a free trial, a subscription set to end as canceling. */
function statusLabel(sub: CustomerSubscription, ended: boolean): string {
  if (sub.cancel_at_period_end && !ended) return "canceling";
  return sub.status === "trialing" ? "free trial" : sub.status.replace("_", " ");
}

export function SubscriptionCard({ initial }: { initial: CustomerSubscription }) {
  const [sub, setSub] = useState(initial);
  const ended = sub.status === "canceled" || sub.ended_at !== null;
  const trialing = sub.status === "trialing" && !ended;
  const price = `${formatMoney(sub.amount, sub.currency)}${perInterval(sub.recurring_interval, sub.recurring_interval_count)}`;
  return (
    <article className="card subscription" aria-labelledby={`sub-${sub.id}`}>
      <div className="row">
        <h3 id={`sub-${sub.id}`}>{sub.product.name}</h3>
        <span className={`badge badge--${sub.status}`}>{statusLabel(sub, ended)}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>Price</dt>
          <dd data-testid="subscription-amount">{price}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDate(sub.started_at)}</dd>
        </div>
        <div>
          <dt>{ended ? "Ended" : sub.cancel_at_period_end ? "Ends" : trialing ? "First charge" : "Renews"}</dt>
          <dd>{formatDate(ended ? sub.ended_at : sub.current_period_end)}</dd>
        </div>
      </dl>
      {trialing && !sub.cancel_at_period_end ? (
        <p className="muted" data-testid="trial-note">
          Free trial until {formatDate(sub.trial_end)}. Then {price}, charged to your saved card; cancel before then and you pay nothing.
        </p>
      ) : null}
      {sub.status === "past_due" ? (
        <Alert kind="error">The last payment failed. Pay the open order under Orders, or add a new card under Payment methods.</Alert>
      ) : null}
      {!ended ? (
        <>
          {!sub.cancel_at_period_end ? <ChangePlan sub={sub} onChanged={setSub} /> : null}
          <Cancel sub={sub} onChanged={setSub} />
        </>
      ) : null}
    </article>
  );
}

/** The subscription a link opened (an email's "Manage your subscription"): that one alone, and the way to all. */
function OpenedSubscription({ id }: { id: string }) {
  const { client } = usePortal();
  const [sub] = useLoad(() => call(customerPortalSubscriptionsGet({ client, path: { id } })), [client, id]);
  return (
    <Opened title="Your subscription" section="subscriptions" all="All subscriptions" record={sub}>
      {(s) => <SubscriptionCard key={s.id} initial={s} />}
    </Opened>
  );
}

/** The customer's subscriptions; `?subscription=<id>` opens one of them. */
export function SubscriptionsSection() {
  const opened = useLocation().search.get("subscription");
  return opened ? <OpenedSubscription id={opened} /> : <SubscriptionList />;
}

function SubscriptionList() {
  const { client } = usePortal();
  const [subs] = useLoad(
    () => call(customerPortalSubscriptionsList({ client, query: { limit: 100, sorting: ["-started_at"] } })),
    [client],
  );
  if (subs.state === "loading") return <Loading label="Loading your subscriptions…" />;
  if (subs.state === "failed") return <Failed error={subs.error} />;
  return (
    <section aria-labelledby="subs-title">
      <h2 id="subs-title">Subscriptions</h2>
      {subs.data.items.length === 0 ? (
        <p className="empty">No subscriptions.</p>
      ) : (
        subs.data.items.map((s) => <SubscriptionCard key={s.id} initial={s} />)
      )}
    </section>
  );
}
