// Creating an account from an invitation: the invited email is fixed, and the verification link
// comes back to the invitation, which then joins the organization.
import { useState } from "react";
import { Alert, TextField } from "@mui/material";
import { session, type InvitationPreview } from "./session";
import { SignUpFields } from "./SignUpFields";

export function InvitationSignUp({ id, invitation }: { id: string; invitation: InvitationPreview }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  if (sent)
    return (
      <Alert severity="success" role="status">
        We sent a link to {invitation.email}. Open it to confirm your email and join {invitation.organizationName}.
      </Alert>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        session.signUp(name, invitation.email, password, `/accept-invitation/${encodeURIComponent(id)}`).then(
          () => setSent(true),
          (err: Error) => {
            setError(err.message);
            setBusy(false);
          },
        );
      }}
    >
      {error ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {error}
        </Alert>
      ) : null}
      <SignUpFields
        name={name}
        onName={setName}
        email={
          <TextField
            id="email"
            label="Email"
            fullWidth
            margin="dense"
            value={invitation.email}
            slotProps={{ htmlInput: { readOnly: true } }}
            helperText="The address the invitation was sent to"
          />
        }
        password={password}
        onPassword={setPassword}
        busy={busy}
        submit="Create account and join"
      />
    </form>
  );
}
