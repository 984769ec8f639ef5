// The sign-in page.
import { useState } from "react";
import { useLogin, useNotify } from "react-admin";
import { Box, Button, Card, CardContent, TextField, Typography } from "@mui/material";

export function LoginPage() {
  const login = useLogin();
  const notify = useNotify();
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Box component="main" sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", bgcolor: "grey.100", p: 2 }}>
      <Card sx={{ width: "100%", maxWidth: 420 }}>
        <CardContent>
          <Typography component="h1" variant="h5" gutterBottom>
            Sign in to Borealis
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Paste an organization access token (<code>make run</code> prints one; <code>make token</code> makes another).
          </Typography>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setBusy(true);
              setError(null);
              login({ token }).catch((err: Error) => {
                setError(err.message);
                notify(err.message, { type: "error" });
              }).finally(() => setBusy(false));
            }}
          >
            <TextField
              id="token"
              label="Access token"
              name="token"
              type="password"
              autoComplete="off"
              fullWidth
              value={token}
              onChange={(e) => setToken(e.target.value)}
              error={!!error}
              helperText={error ?? " "}
            />
            <Button type="submit" variant="contained" fullWidth disabled={busy || !token} sx={{ mt: 1 }}>
              {busy ? "Signing in…" : "Sign in"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}
