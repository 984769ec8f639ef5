// Changing the email: a link goes to the new address, and the change is made when it is opened.
import { useState } from "react";
import { Alert, Button, TextField, Typography } from "@mui/material";
import { session, type SessionUser } from "../authProvider/session";
import { Section } from "./Section";

export function EmailCard({ me }: { me: SessionUser }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Section title="Email" id="account-email">
      <Typography variant="body2" sx={{ mb: 1 }}>
        You sign in with <strong>{me.email}</strong>.
      </Typography>
      {sent ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          We sent a link to {sent}. Your email changes when you open it.
        </Alert>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          const to = email.trim();
          session.changeEmail(to).then(
            () => {
              setSent(to);
              setEmail("");
              setBusy(false);
            },
            (err: Error) => {
              setError(err.message);
              setBusy(false);
            },
          );
        }}
      >
        <TextField
          id="account-new-email"
          label="New email"
          type="email"
          autoComplete="email"
          fullWidth
          margin="dense"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!error}
          helperText={error}
          required
        />
        <Button type="submit" variant="outlined" disabled={busy} sx={{ mt: 1 }}>
          Change email
        </Button>
      </form>
    </Section>
  );
}
