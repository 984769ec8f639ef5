// The sandbox's 3-D Secure challenge: what a bank's authentication page asks, answered against
// the sandbox processor (POST /v1/integrations/sandbox/authenticate, outside the contract). With
// Stripe, Stripe.js shows the bank's own page instead.
import { useState } from "react";
import type { CheckoutPublic } from "../../../../generated/client/types.gen.js";
import { Alert, Button } from "../../ui/components.js";
import { formatMoney } from "../../ui/format.js";

export function SandboxAuthentication({ checkout, onDone }: { checkout: CheckoutPublic; onDone: () => void }) {
  const [busy, setBusy] = useState<"approve" | "fail" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const answer = async (outcome: "approve" | "fail") => {
    setBusy(outcome);
    setError(null);
    try {
      const res = await fetch("/v1/integrations/sandbox/authenticate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_secret: checkout.client_secret, outcome }),
      });
      if (!res.ok) throw new Error(`The sandbox answered ${res.status}.`);
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="challenge" aria-labelledby="challenge-title">
      <h2 id="challenge-title">Sandbox bank: 3-D Secure</h2>
      <p>
        Your bank asks you to confirm the payment of <strong>{formatMoney(checkout.total_amount, checkout.currency)}</strong> to{" "}
        {checkout.organization.name}.
      </p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <div className="actions">
        <Button kind="primary" busy={busy === "approve"} disabled={busy !== null} onClick={() => void answer("approve")}>
          Complete authentication
        </Button>
        <Button kind="secondary" busy={busy === "fail"} disabled={busy !== null} onClick={() => void answer("fail")}>
          Fail authentication
        </Button>
      </div>
    </section>
  );
}
