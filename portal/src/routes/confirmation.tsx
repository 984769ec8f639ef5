// /checkout/<client secret>/confirmation: how the payment went. While the processor works (or
// asks the buyer to authenticate) it waits; once paid it shows the order and what the buyer got —
// license keys, downloads, access — read with the customer session the confirm call returned,
// and, when the merchant set a success URL, takes the buyer there. In an iframe it tells the
// parent page (`success`) instead.
import { useEffect, useRef, useState } from "react";
import type { Client } from "../../../generated/client/client/index.js";
import { customerPortalBenefitGrantsList, customerPortalOrdersList } from "../../../generated/client/sdk.gen.js";
import type { CheckoutPublic, CustomerBenefitGrant, CustomerOrder } from "../../../generated/client/types.gen.js";
import { customerClient } from "../api/client.js";
import { call } from "../api/errors.js";
import { embedFrom, embedQuery } from "../features/checkout/embed.js";
import type { PaymentFailure } from "../features/checkout/form.js";
import { SandboxAuthentication } from "../features/checkout/sandbox-authentication.js";
import { fetchCheckout, problemOf, type SessionProblem } from "../features/checkout/session.js";
import { GrantCard } from "../features/portal/benefits.js";
import { appConfig } from "../config.js";
import { Button, Loading, MessagePage } from "../ui/components.js";
import { formatDate, formatMoney, perInterval } from "../ui/format.js";
import { navigate, useLocation } from "../router.js";
import { ProblemPage } from "./checkout.js";
import { setFavicon } from "../ui/favicon.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a payment this page waited for failed: the bank's 3-D Secure check, or a decline. */
function failureOf(waited: CheckoutPublic): PaymentFailure {
  return waited.payment_processor_metadata.intent_status === "requires_action" ? "authentication" : "declined";
}

/** The merchant's own success URL, or null when it is the server's default (this page). */
function merchantSuccessUrl(checkout: CheckoutPublic): string | null {
  const own = `${window.location.origin}/checkout/${encodeURIComponent(checkout.client_secret)}/confirmation`;
  return checkout.success_url.startsWith(own) ? null : checkout.success_url;
}

function Received({ client, checkout }: { client: Client; checkout: CheckoutPublic }) {
  const [order, setOrder] = useState<CustomerOrder | null>(null);
  const [grants, setGrants] = useState<CustomerBenefitGrant[] | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const orders = await call(customerPortalOrdersList({ client, query: { limit: 20, sorting: ["-created_at"] } }));
      if (live) setOrder(orders.items.find((o) => o.checkout_id === checkout.id) ?? null);
      // Benefits are granted by the worker a moment after the payment: wait for all of them (30 s at most).
      const expected = checkout.product.benefits.length;
      for (let i = 0; live && i < 60; i++) {
        const page = await call(customerPortalBenefitGrantsList({ client, query: { checkout_id: [checkout.id], limit: 100 } }));
        if (!live) return;
        setGrants(page.items);
        if (page.items.filter((g) => g.is_granted).length >= expected) return;
        await sleep(500);
      }
    })().catch(() => live && setGrants([]));
    return () => {
      live = false;
    };
  }, [client, checkout]);

  return (
    <>
      {order ? (
        <section aria-labelledby="order-title" className="card">
          <h2 id="order-title">Your order</h2>
          <table className="table">
            <caption className="visually-hidden">Order lines</caption>
            <tbody>
              {order.items.map((item) => (
                <tr key={item.id}>
                  <th scope="row">{item.label}</th>
                  <td className="num">{formatMoney(item.amount, order.currency)}</td>
                </tr>
              ))}
              {order.discount_amount ? (
                <tr>
                  <th scope="row">Discount</th>
                  <td className="num">−{formatMoney(order.discount_amount, order.currency)}</td>
                </tr>
              ) : null}
              <tr className="table__total">
                <th scope="row">Total paid</th>
                <td className="num" data-testid="order-total">
                  {formatMoney(order.total_amount, order.currency)}
                </td>
              </tr>
            </tbody>
          </table>
        </section>
      ) : null}
      {checkout.product.benefits.length ? (
        <section aria-labelledby="benefits-title">
          <h2 id="benefits-title">What you get</h2>
          {grants === null ? <Loading label="Preparing your benefits…" /> : null}
          {grants?.map((g) => (
            <GrantCard key={g.id} client={client} grant={g} />
          ))}
          {grants && grants.filter((g) => g.is_granted).length < checkout.product.benefits.length ? (
            <Loading label="Preparing your benefits…" />
          ) : null}
        </section>
      ) : null}
    </>
  );
}

export function ConfirmationRoute({ secret }: { secret: string }) {
  const { search } = useLocation();
  const token = search.get("customer_session_token");
  const [checkout, setCheckout] = useState<CheckoutPublic | null>(null);
  const [problem, setProblem] = useState<SessionProblem | null>(null);
  const [redirectIn, setRedirectIn] = useState<number | null>(null);
  const [poll, setPoll] = useState(0);
  // The last view of the payment in progress: when the checkout opens again, it says why.
  const waited = useRef<CheckoutPublic | null>(null);

  // Until the outcome is known: read the checkout every second (the processor's webhook, the
  // buyer's authentication or the worker's confirm recovery moves it on). An API or database
  // restarting meanwhile is asked again, for a minute, before the page says something is wrong.
  useEffect(() => {
    let live = true;
    (async () => {
      for (let failures = 0; ;) {
        const next = await fetchCheckout(secret).catch((err: unknown) => {
          if (problemOf(err)?.kind !== "error" || ++failures >= 60) throw err;
          return null;
        });
        if (!live) return;
        if (!next) {
          await sleep(1000);
          continue;
        }
        failures = 0;
        if (next.status === "confirmed") waited.current = next;
        setCheckout(next);
        if (next.status !== "confirmed") return;
        await sleep(1000);
      }
    })().catch((err: unknown) => live && setProblem(problemOf(err) ?? { kind: "error", detail: String(err) }));
    return () => {
      live = false;
    };
  }, [secret, poll]);

  const embed = embedFrom(search, checkout?.embed_origin ?? null);
  const succeeded = checkout?.status === "succeeded";
  const successUrl = checkout ? merchantSuccessUrl(checkout) : null;

  useEffect(() => {
    if (!checkout) return;
    document.title = `${succeeded ? "Thank you" : "Payment"} · ${checkout.organization.name}`;
    setFavicon(checkout.organization.avatar_url);
    if (embed.theme) document.documentElement.dataset.theme = embed.theme;
    if (checkout.status === "open") {
      // Declined or not authenticated while this page waited: the form says so.
      const q = new URLSearchParams(embedQuery(search));
      if (waited.current) q.set("payment_failed", failureOf(waited.current));
      const query = q.toString();
      navigate(`/checkout/${encodeURIComponent(secret)}${query ? `?${query}` : ""}`, { replace: true });
    }
    if (!succeeded) return;
    embed.post({ event: "success", successURL: checkout.success_url, redirect: successUrl !== null });
    if (successUrl && !embed.embedded) setRedirectIn(5);
  }, [checkout?.status]);

  useEffect(() => {
    if (redirectIn === null || !successUrl) return;
    if (redirectIn <= 0) {
      window.location.assign(successUrl);
      return;
    }
    const t = setTimeout(() => setRedirectIn((n) => (n === null ? null : n - 1)), 1000);
    return () => clearTimeout(t);
  }, [redirectIn, successUrl]);

  if (problem)
    return (
      <ProblemPage
        problem={problem}
        onRetry={() => {
          setProblem(null);
          setPoll((n) => n + 1);
        }}
      />
    );
  if (!checkout) return <Loading label="Loading your order…" />;
  if (checkout.status === "failed") {
    return (
      <MessagePage title="The payment failed">
        <p>Your payment could not be completed and nothing was charged. Go back to the store to try again.</p>
      </MessagePage>
    );
  }
  if (checkout.status === "confirmed") {
    const action = checkout.payment_processor_metadata.intent_status === "requires_action";
    return (
      <MessagePage title={action ? "Confirm the payment with your bank" : "Processing your payment…"}>
        {action && appConfig().processor === "sandbox" ? (
          <SandboxAuthentication checkout={checkout} onDone={() => setPoll((n) => n + 1)} />
        ) : (
          <Loading label={action ? "Waiting for your bank to confirm…" : "This takes a few seconds."} />
        )}
      </MessagePage>
    );
  }
  if (checkout.status !== "succeeded") return <Loading />;
  // The confirm's session shows this purchase only: the portal asks for an emailed code.
  const portal = `/${encodeURIComponent(checkout.organization.slug)}/portal${checkout.customer_email ? `?email=${encodeURIComponent(checkout.customer_email)}` : ""}`;
  return (
    <main className="page page--narrow confirmation">
      <div className="card confirmation__hero">
        <p className="confirmation__check" aria-hidden="true">
          ✓
        </p>
        <h1>Thank you{checkout.customer_name ? `, ${checkout.customer_name}` : ""}!</h1>
        <p>
          Your {checkout.product.recurring_interval ? "subscription to" : "purchase of"} <strong>{checkout.product.name}</strong> is
          confirmed
          {checkout.total_amount ? (
            <>
              {" "}
              — {formatMoney(checkout.total_amount, checkout.currency)}
              {perInterval(checkout.product.recurring_interval, checkout.product.recurring_interval_count)}
            </>
          ) : null}
          . {checkout.customer_email ? <>A receipt goes to {checkout.customer_email}.</> : null}
        </p>
        {checkout.trial_end ? (
          <p data-testid="trial-ends">Your free trial runs until {formatDate(checkout.trial_end)}: nothing is charged before then.</p>
        ) : null}
        {successUrl && !embed.embedded ? (
          <p role="status">
            Taking you back to {checkout.organization.name}
            {redirectIn !== null ? ` in ${redirectIn} s` : ""}…{" "}
            <Button kind="link" onClick={() => setRedirectIn(null)}>
              Stay here
            </Button>{" "}
            <a href={successUrl}>Continue now</a>
          </p>
        ) : null}
      </div>
      {token ? <Received client={customerClient(token)} checkout={checkout} /> : null}
      <p className="confirmation__portal">
        <a href={portal} target={embed.embedded ? "_blank" : undefined} rel="noreferrer">
          Manage your {checkout.product.recurring_interval ? "subscription" : "purchases"} in the customer portal
        </a>
      </p>
      {embed.embedded ? (
        <Button kind="secondary" onClick={() => embed.post({ event: "close" })}>
          Close
        </Button>
      ) : null}
    </main>
  );
}
