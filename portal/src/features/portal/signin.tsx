// Sign-in to the portal: the customer's email (?email= fills it in), then the 6-character code
// mailed to it. The merchant's own link (?customer_session_token=) skips this.
import { useState } from "react";
import { customerPortalCustomerSessionAuthenticate, customerPortalCustomerSessionRequest } from "../../../../generated/client/sdk.gen.js";
import type { CustomerOrganization } from "../../../../generated/client/types.gen.js";
import { publicClient } from "../../api/client.js";
import { ApiFailure, call, send } from "../../api/errors.js";
import { Alert, aria, Button, Field } from "../../ui/components.js";

export function SignIn({
  organization,
  notice,
  onSignedIn,
}: {
  organization: CustomerOrganization;
  notice?: string;
  onSignedIn: (token: string) => void;
}) {
  const [step, setStep] = useState<"email" | "code">("email");
  // The checkout's confirmation links here with the email it was paid with.
  const [email, setEmail] = useState(() => new URLSearchParams(window.location.search).get("email") ?? "");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const requestCode = async () => {
    setError(undefined);
    if (!email.trim()) return setError("Enter your email.");
    setBusy(true);
    try {
      await send(
        customerPortalCustomerSessionRequest({ client: publicClient, body: { email: email.trim(), organization_id: organization.id } }),
      );
      setStep("code");
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.fields.email ?? err.detail) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const authenticate = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const { token } = await call(customerPortalCustomerSessionAuthenticate({ client: publicClient, body: { code: code.trim() } }));
      onSignedIn(token);
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.fields.code ?? err.detail) : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page page--narrow">
      <div className="card signin">
        <div className="org">
          {organization.avatar_url ? (
            <img className="org__avatar" src={organization.avatar_url} alt="" />
          ) : (
            <span className="org__avatar org__avatar--letter" aria-hidden="true">
              {organization.name.slice(0, 1)}
            </span>
          )}
          <span className="org__name">{organization.name}</span>
        </div>
        <h1>Sign in to your customer portal</h1>
        {notice ? <Alert kind="info">{notice}</Alert> : null}
        {step === "email" ? (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void requestCode();
            }}
          >
            <p>We'll email you a code to sign in with: no password needed.</p>
            <Field label="Email" error={error}>
              {(ids) => (
                <input {...aria(ids)} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
              )}
            </Field>
            <Button type="submit" kind="primary" busy={busy}>
              Email me a code
            </Button>
          </form>
        ) : (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void authenticate();
            }}
          >
            <p role="status">
              If <strong>{email}</strong> has purchases with {organization.name}, a code is on its way. It works once, for 15 minutes.
            </p>
            <Field label="Code" error={error}>
              {(ids) => (
                <input
                  {...aria(ids)}
                  autoComplete="one-time-code"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={8}
                  value={code}
                  onChange={(e) => setCode(e.target.value.toUpperCase())}
                />
              )}
            </Field>
            <Button type="submit" kind="primary" busy={busy}>
              Sign in
            </Button>
            <p>
              <Button
                kind="link"
                onClick={() => {
                  setStep("email");
                  setCode("");
                  setError(undefined);
                }}
              >
                Use another email or send a new code
              </Button>
            </p>
          </form>
        )}
      </div>
    </main>
  );
}
