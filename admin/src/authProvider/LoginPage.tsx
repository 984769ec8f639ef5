// The sign-in page: email and password (with sign-up, email verification and password reset), or
// an organization access token. With two-factor authentication on, the password is followed by a
// code from the authenticator app (or a backup code).
import { useState, type FormEvent } from "react";
import { useLogin } from "react-admin";
import { Alert, Button, Link, TextField, Typography } from "@mui/material";
import { session, AuthError } from "./session";
import { AuthCard } from "./AuthCard";
import { EmailField } from "./EmailField";
import { PasswordField } from "./PasswordField";
import { TITLES, type Mode } from "./loginModes";
import { OtherWaysIn } from "./OtherWaysIn";
import { SignUpFields } from "./SignUpFields";
import { TWO_FACTOR_REQUIRED } from "./index";

export function LoginPage() {
  const login = useLogin();
  const [mode, setMode] = useState<Mode>("sign-in");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const [code, setCode] = useState("");
  const [backup, setBackup] = useState(false);

  const go = (m: Mode) => {
    setMode(m);
    setError(null);
    setInfo(null);
    setUnverified(false);
  };
  const run = async (e: FormEvent, fn: () => Promise<unknown>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setInfo(null);
    try {
      await fn();
    } catch (err) {
      if (err instanceof AuthError && err.code === TWO_FACTOR_REQUIRED) {
        setMode("two-factor");
        setCode("");
        setInfo(err.message);
        return;
      }
      setError(err instanceof Error ? err.message : String(err));
      setUnverified(err instanceof AuthError && /not verified/i.test(err.message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={TITLES[mode]}>
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {error}
          {unverified ? (
            <>
              {" "}
              —{" "}
              <Link
                component="button"
                type="button"
                onClick={() => void session.sendVerification(email).then(() => setInfo("We sent you a new verification link."))}
              >
                send the link again
              </Link>
            </>
          ) : null}
        </Alert>
      ) : null}
      {info ? (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {info}
        </Alert>
      ) : null}
      {mode === "sign-in" ? (
        <form onSubmit={(e) => void run(e, () => login({ email, password }))}>
          <EmailField value={email} onChange={setEmail} />
          <PasswordField value={password} onChange={setPassword} autoComplete="current-password" />
          <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }}>
            {busy ? "Signing in…" : "Sign in"}
          </Button>
        </form>
      ) : null}
      {mode === "two-factor" ? (
        <form onSubmit={(e) => void run(e, () => login(backup ? { backupCode: code } : { totp: code }))}>
          <TextField
            id="two-factor-code"
            label={backup ? "Backup code" : "Authentication code"}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: backup ? {} : { inputMode: "numeric", pattern: "[0-9 ]*" } }}
            fullWidth
            margin="dense"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoFocus
          />
          <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }}>
            {busy ? "Checking…" : "Verify"}
          </Button>
          <Link
            component="button"
            type="button"
            sx={{ mt: 1 }}
            onClick={() => {
              setBackup(!backup);
              setCode("");
              setError(null);
            }}
          >
            {backup ? "Use the authenticator app" : "Use a backup code instead"}
          </Link>
        </form>
      ) : null}
      {mode === "sign-up" ? (
        <form
          onSubmit={(e) =>
            void run(e, async () => {
              await session.signUp(name, email, password);
              setInfo(`We sent a verification link to ${email}. Open it, then sign in.`);
              setMode("sign-in");
            })
          }
        >
          <SignUpFields
            name={name}
            onName={setName}
            email={<EmailField value={email} onChange={setEmail} />}
            password={password}
            onPassword={setPassword}
            busy={busy}
            submit="Create account"
          />
        </form>
      ) : null}
      {mode === "forgot" ? (
        <form
          onSubmit={(e) =>
            void run(e, async () => {
              await session.requestReset(email);
              setInfo(`If ${email} has an account, a link to choose a new password is on its way.`);
            })
          }
        >
          <EmailField value={email} onChange={setEmail} />
          <Button type="submit" variant="contained" fullWidth disabled={busy} sx={{ mt: 2 }}>
            Send the link
          </Button>
        </form>
      ) : null}
      {mode === "token" ? (
        <form onSubmit={(e) => void run(e, () => login({ token }))}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            An organization access token (<code>make token</code> makes one).
          </Typography>
          <TextField
            id="token"
            label="Access token"
            type="password"
            autoComplete="off"
            fullWidth
            margin="dense"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
          />
          <Button type="submit" variant="contained" fullWidth disabled={busy || !token} sx={{ mt: 2 }}>
            {busy ? "Signing in…" : "Sign in"}
          </Button>
        </form>
      ) : null}
      <OtherWaysIn mode={mode} go={go} />
    </AuthCard>
  );
}
