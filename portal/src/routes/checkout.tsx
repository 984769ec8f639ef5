// /checkout/<client secret>: loads the checkout and shows what its state calls for — the form
// while it is open, the confirmation once paid, and a page of its own when it has expired, is
// gone, or the server failed.
import { useCallback, useEffect, useState } from "react";
import type { CheckoutPublic, CheckoutPublicConfirmed } from "../../../generated/client/types.gen.js";
import { embedFrom, embedQuery } from "../features/checkout/embed.js";
import { CheckoutForm, type PaymentFailure } from "../features/checkout/form.js";
import type { PaymentCollector } from "../features/checkout/payment.js";
import { fetchCheckout, problemOf, type SessionProblem } from "../features/checkout/session.js";
import { Button, Loading, MessagePage } from "../ui/components.js";
import { navigate, useLocation } from "../router.js";
import { setFavicon } from "../ui/favicon.js";

/** Why the buyer is back on an open checkout after paying: `?payment_failed=` from the confirmation page. */
const paymentFailure = (value: string | null): PaymentFailure | null => (value === "authentication" || value === "declined" ? value : null);

type State = { kind: "loading" } | { kind: "ready"; checkout: CheckoutPublic } | { kind: "problem"; problem: SessionProblem };

export function confirmationPath(secret: string, search: URLSearchParams, token?: string | null): string {
  const q = new URLSearchParams(embedQuery(search));
  if (token) q.set("customer_session_token", token);
  const query = q.toString();
  return `/checkout/${encodeURIComponent(secret)}/confirmation${query ? `?${query}` : ""}`;
}

export function ProblemPage({ problem, onRetry }: { problem: SessionProblem; onRetry?: () => void }) {
  switch (problem.kind) {
    case "expired":
      return (
        <MessagePage title="This checkout has expired">
          <p>Checkout sessions stay open for a limited time. Go back to the store and start again: nothing was charged.</p>
        </MessagePage>
      );
    case "gone":
      return (
        <MessagePage title="This checkout is not available">
          <p>{problem.detail}</p>
        </MessagePage>
      );
    case "error":
      return (
        <MessagePage
          title="Something went wrong"
          actions={
            onRetry ? (
              <Button kind="primary" onClick={onRetry}>
                Try again
              </Button>
            ) : undefined
          }
        >
          <p>We could not load this checkout. Nothing was charged.</p>
          <p className="muted">{problem.detail}</p>
        </MessagePage>
      );
  }
}

export function CheckoutRoute({ secret }: { secret: string }) {
  const { search } = useLocation();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  // Read once: the notice stays until the buyer pays again, a reload does not repeat it.
  const [failed] = useState(() => paymentFailure(search.get("payment_failed")));
  useEffect(() => {
    if (!search.has("payment_failed")) return;
    const q = new URLSearchParams(search);
    q.delete("payment_failed");
    const query = q.toString();
    window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
  }, []);

  useEffect(() => {
    let live = true;
    fetchCheckout(secret).then(
      (checkout) => live && setState({ kind: "ready", checkout }),
      (err) => live && setState({ kind: "problem", problem: problemOf(err) ?? { kind: "error", detail: String(err) } }),
    );
    return () => {
      live = false;
    };
  }, [secret, attempt]);

  const checkout = state.kind === "ready" ? state.checkout : null;
  const embed = embedFrom(search, checkout?.embed_origin ?? null);

  useEffect(() => {
    if (!checkout) return;
    document.title = `Checkout · ${checkout.organization.name}`;
    setFavicon(checkout.organization.avatar_url);
    if (embed.theme) document.documentElement.dataset.theme = embed.theme;
    embed.post({ event: "loaded" });
    // Paid or being paid already: its confirmation page says how it went.
    if (checkout.status === "succeeded" || checkout.status === "confirmed") navigate(confirmationPath(secret, search), { replace: true });
    // Once per loaded checkout (embed is derived from the URL, which does not change here).
  }, [checkout]);

  const onProblem = useCallback((problem: SessionProblem) => setState({ kind: "problem", problem }), []);
  const onConfirmed = useCallback(
    async (confirmed: CheckoutPublicConfirmed, collector: PaymentCollector | null) => {
      const secretOf = confirmed.payment_processor_metadata.intent_client_secret;
      if (confirmed.payment_processor_metadata.intent_status === "requires_action" && secretOf && collector?.authenticate) {
        await collector.authenticate(secretOf);
      }
      navigate(confirmationPath(secret, search, confirmed.customer_session_token));
    },
    [secret, search],
  );

  if (state.kind === "loading") return <Loading label="Loading checkout…" />;
  if (state.kind === "problem")
    return (
      <ProblemPage
        problem={state.problem}
        onRetry={() => {
          setState({ kind: "loading" });
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (state.checkout.status === "failed") {
    return (
      <MessagePage title="The payment failed">
        <p>This checkout could not be paid and is closed. Go back to the store to start a new one.</p>
      </MessagePage>
    );
  }
  if (state.checkout.status !== "open") return <Loading label="Opening your confirmation…" />;
  return (
    <CheckoutForm
      initial={state.checkout}
      failed={failed}
      embed={embed}
      onProblem={onProblem}
      onConfirmed={onConfirmed}
      onPaying={() => navigate(confirmationPath(secret, search))}
    />
  );
}
