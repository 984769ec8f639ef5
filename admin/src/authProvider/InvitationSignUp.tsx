// Creating an account from an invitation: the invited email is fixed, and the verification link
// comes back to the invitation, which then joins the organization.
import { useState } from "react";
import { Alert, Button, TextField } from "@mui/material";
import { session, type InvitationPreview } from "./session";
import { PasswordField } from "./PasswordField";

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
      <TextField
        id="name"
        label="Your name"
        autoComplete="name"
        fullWidth
        margin="dense"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
      />
      <TextField
        id="email"
        label="Email"
        fullWidth
        margin="dense"
        value={invitation.email}
        slotProps={{ htmlInput: { readOnly: true } }}
        helperText="The address the invitation was sent to"
      />
      <PasswordField value={password} onChange={setPassword} autoComplete="new-password" helperText="8 characters or more" />
      <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }}>
        Create account and join
      </Button>
    </form>
  );
}
