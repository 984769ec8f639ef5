// /dashboard/reset-password?token=…: where the password-reset email's link lands (through
// better-auth, which checks the token first and adds it to this URL).
import { useState } from "react";
import { Alert, Button, Link, TextField } from "@mui/material";
import { useSearchParams, useNavigate } from "react-router-dom";
import { AuthCard } from "./AuthCard";
import { session } from "./session";

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(params.get("error") ? "This link is not valid any more: ask for a new one." : null);
  const [done, setDone] = useState(false);
  return (
    <AuthCard title="Choose a new password">
      {error ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert severity="success" role="status">
          Your password is changed.{" "}
          <Link component="button" type="button" onClick={() => navigate("/login")}>
            Sign in
          </Link>
        </Alert>
      ) : token ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            session.resetPassword(token, password).then(
              () => setDone(true),
              (err: Error) => setError(err.message),
            );
          }}
        >
          <TextField
            id="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            fullWidth
            margin="dense"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            helperText="8 characters or more"
          />
          <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }}>
            Save the new password
          </Button>
        </form>
      ) : null}
    </AuthCard>
  );
}
