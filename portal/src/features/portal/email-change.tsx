// Changing the customer's email, where the organization allows it: the new address gets a link
// with a one-time code; the link opens the verify page here, which checks the code, changes the
// email when the customer confirms, and signs them in with the new session.
import { useEffect, useState } from "react";
import {
  customerPortalCustomersCheckEmailUpdate,
  customerPortalCustomersRequestEmailUpdate,
  customerPortalCustomersVerifyEmailUpdate,
} from "../../../../generated/client/sdk.gen.js";
import type { CustomerOrganization } from "../../../../generated/client/types.gen.js";
import { publicClient } from "../../api/client.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, aria, Button, Field, Loading } from "../../ui/components.js";
import { usePortal } from "./context.js";

const failure = (err: unknown, field: string) => (err instanceof ApiFailure ? (err.fields[field] ?? err.detail) : String(err));

/** The request form, in the email section. */
export function EmailChange() {
  const { client, customer } = usePortal();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const request = async () => {
    setError(undefined);
    setSentTo(null);
    if (!email.trim()) return setError("Enter your new email.");
    setBusy(true);
    try {
      await send(customerPortalCustomersRequestEmailUpdate({ client, body: { email: email.trim() } }));
      setSentTo(email.trim());
    } catch (err) {
      setError(failure(err, "email"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="email-change-title">
      <h2 id="email-change-title">Email address</h2>
      <form
        className="card"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void request();
        }}
      >
        <p className="muted">
          Your email is {customer.email}. To change it, enter the new one: we'll send it a link to confirm the change.
        </p>
        <Field label="New email" error={error}>
          {(ids) => <input {...aria(ids)} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        {sentTo ? <Alert kind="success">We sent a link to {sentTo}. Open it within 30 minutes to confirm your new email.</Alert> : null}
        <Button type="submit" kind="primary" busy={busy}>
          Send confirmation link
        </Button>
      </form>
    </section>
  );
}

type VerifyState = { kind: "checking" } | { kind: "valid" } | { kind: "invalid"; detail: string };

/** /<slug>/portal/verify-email?token=…: the link from the email. Needs no session; the code is the proof. */
export function VerifyEmail({ organization, onVerified }: { organization: CustomerOrganization; onVerified: (token: string) => void }) {
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token") ?? "");
  const [state, setState] = useState<VerifyState>({ kind: "checking" });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    send(customerPortalCustomersCheckEmailUpdate({ client: publicClient, query: { token } })).then(
      () => live && setState({ kind: "valid" }),
      (err: unknown) => live && setState({ kind: "invalid", detail: failure(err, "token") }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const verify = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const { token: session } = await call(customerPortalCustomersVerifyEmailUpdate({ client: publicClient, body: { token } }));
      onVerified(session);
    } catch (err) {
      setError(failure(err, "token"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="page page--narrow">
      <div className="card signin">
        <h1>Confirm your new email</h1>
        {state.kind === "checking" ? <Loading label="Checking your link…" /> : null}
        {state.kind === "invalid" ? <Alert kind="error">{state.detail}</Alert> : null}
        {state.kind === "valid" ? (
          <>
            <p>Use this address as your email with {organization.name} from now on.</p>
            {error ? <Alert kind="error">{error}</Alert> : null}
            <Button kind="primary" busy={busy} onClick={() => void verify()}>
              Confirm my new email
            </Button>
          </>
        ) : null}
      </div>
    </main>
  );
}
