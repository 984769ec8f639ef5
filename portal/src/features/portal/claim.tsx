// The seat invitation's link (/<org>/portal/claim?token=…): what the token offers, and a Claim
// button. The token is the secret (no sign-in); claiming answers a portal session of the holder,
// with which the portal opens.
import { useState } from "react";
import { customerSeatsClaimSeat, customerSeatsGetClaimInfo } from "../../../../generated/client/sdk.gen.js";
import type { SeatClaimInfo } from "../../../../generated/client/types.gen.js";
import { publicClient } from "../../api/client.js";
import { ApiFailure, call } from "../../api/errors.js";
import { useLocation } from "../../router.js";
import { Alert, Button, Loading, MessagePage } from "../../ui/components.js";
import { useLoad } from "./data.js";

export function ClaimSeat(props: { onClaimed: (slug: string, sessionToken: string) => void }) {
  const token = useLocation().search.get("token") ?? "";
  const [info] = useLoad<SeatClaimInfo | null>(
    () => (token ? call(customerSeatsGetClaimInfo({ client: publicClient, path: { invitation_token: token } })) : Promise.resolve(null)),
    [token],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const claim = async (slug: string) => {
    setBusy(true);
    setError(null);
    try {
      const claimed = await call(customerSeatsClaimSeat({ client: publicClient, body: { invitation_token: token } }));
      props.onClaimed(slug, claimed.customer_session_token);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.detail : String(err));
      setBusy(false);
    }
  };

  if (info.state === "loading") return <Loading label="Loading your invitation…" />;
  if (info.state === "failed" || info.data === null) {
    const missing = info.state === "ready";
    return (
      <MessagePage title={missing ? "No invitation here" : "This invitation cannot be used"}>
        <p>
          {missing
            ? "This page opens from the link in a seat invitation email, which carries the invitation."
            : info.state === "failed" && info.error.status !== 404
              ? info.error.detail
              : "The invitation has expired, has been claimed already or was withdrawn. Ask the person who invited you to send it again."}
        </p>
      </MessagePage>
    );
  }
  const offer = info.data;
  return (
    <MessagePage
      title="Claim your seat"
      actions={
        <Button kind="primary" busy={busy} disabled={!offer.can_claim} onClick={() => void claim(offer.organization_slug)}>
          Claim seat
        </Button>
      }
    >
      <p>
        You're invited to {offer.product_name} from {offer.organization_name}.
      </p>
      <dl className="facts">
        <div>
          <dt>Product</dt>
          <dd data-testid="claim-product">{offer.product_name}</dd>
        </div>
        <div>
          <dt>From</dt>
          <dd data-testid="claim-organization">{offer.organization_name}</dd>
        </div>
        <div>
          <dt>For</dt>
          <dd data-testid="claim-email">{offer.customer_email}</dd>
        </div>
      </dl>
      {offer.can_claim ? null : <Alert kind="warning">This seat cannot be claimed now.</Alert>}
      {error ? <Alert kind="error">{error}</Alert> : null}
    </MessagePage>
  );
}
