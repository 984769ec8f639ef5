// Sign-in to the portal: the customer's email (?email= fills it in), then the 6-character code
// mailed to it. An email that is a member of several customers (409) asks which one first. The
// merchant's own link (?customer_session_token=) skips this.
import { useState } from "react";
import { customerPortalCustomerSessionAuthenticate, customerPortalCustomerSessionRequest } from "../../../../generated/client/sdk.gen.js";
import type { CustomerOrganization, CustomerSelectionOption } from "../../../../generated/client/types.gen.js";
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
  // The customers the email is a member of, once the server asked which one; the one chosen.
  const [choices, setChoices] = useState<CustomerSelectionOption[] | null>(null);
  const [customerId, setCustomerId] = useState("");
  const [choiceError, setChoiceError] = useState<string | undefined>();

  const requestCode = async () => {
    setError(undefined);
    setChoiceError(undefined);
    if (!email.trim()) return setError("Enter your email.");
    if (choices && !customerId) return setChoiceError("Choose the account to sign in to.");
    setBusy(true);
    try {
      const body = { email: email.trim(), organization_id: organization.id, customer_id: choices ? customerId : null };
      await send(customerPortalCustomerSessionRequest({ client: publicClient, body }));
      setStep("code");
    } catch (err) {
      const options = err instanceof ApiFailure ? selectionOf(err) : null;
      if (options) {
        setChoices(options);
        setCustomerId("");
      } else if (err instanceof ApiFailure && err.fields.customer_id) {
        setChoiceError(err.fields.customer_id);
      } else {
        setError(err instanceof ApiFailure ? (err.fields.email ?? err.detail) : String(err));
      }
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
                <input
                  {...aria(ids)}
                  type="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => {
                    setEmail(e.target.value);
                    setChoices(null);
                  }}
                />
              )}
            </Field>
            {choices ? (
              <>
                <p role="status">This email belongs to several accounts with {organization.name}. Which one do you want to sign in to?</p>
                <Field label="Account" error={choiceError}>
                  {(ids) => (
                    <select {...aria(ids)} required value={customerId} onChange={(e) => setCustomerId(e.target.value)}>
                      <option value="">Choose an account</option>
                      {choices.map((c, i) => (
                        <option key={c.id} value={c.id}>
                          {c.name ?? `Account ${i + 1} (no name)`}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </>
            ) : null}
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

/** The customers to choose from, when the answer is a 409 customer_selection_required. */
function selectionOf(err: ApiFailure): CustomerSelectionOption[] | null {
  if (err.status !== 409 || err.errorName !== "customer_selection_required") return null;
  const body: unknown = err.body;
  if (!body || typeof body !== "object" || !("customers" in body) || !Array.isArray(body.customers)) return null;
  return body.customers.filter(isOption);
}

function isOption(value: unknown): value is CustomerSelectionOption {
  if (!value || typeof value !== "object" || !("id" in value) || !("name" in value)) return false;
  return typeof value.id === "string" && (value.name === null || typeof value.name === "string");
}
