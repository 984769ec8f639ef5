// Two-factor authentication (better-auth's twoFactor plugin): turn it on with the password, add the
// secret to an authenticator app, prove it with a code, keep the backup codes; later, new backup
// codes or turning it off, each with the password.
import { useState } from "react";
import { useNotify } from "react-admin";
import { Box, Button, Chip, Link, TextField, Typography } from "@mui/material";
import { session, type TotpEnrolment } from "../authProvider/session";
import { Section } from "./Section";
import { BackupCodes } from "./BackupCodes";
import { TotpQr } from "./TotpQr";

/** The base32 secret of an otpauth:// URI, in groups of four for typing into an app. */
export function secretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

export function TwoFactorCard({ enabled, onChange }: { enabled: boolean; onChange: () => Promise<void> }) {
  const notify = useNotify();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);

  const step = async (fn: () => Promise<void>, field: "password" | "code") => {
    setBusy(true);
    setErrors({});
    try {
      await fn();
    } catch (e) {
      setErrors({ [field]: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const passwordField = (
    <TextField
      id="two-factor-password"
      label="Your password"
      type="password"
      autoComplete="current-password"
      fullWidth
      margin="dense"
      value={password}
      onChange={(e) => setPassword(e.target.value)}
      error={!!errors.password}
      helperText={errors.password}
      required
    />
  );

  if (codes)
    return (
      <Section title="Two-factor authentication" id="account-two-factor">
        <BackupCodes codes={codes} onDone={() => setCodes(null)} />
      </Section>
    );

  if (enrolment)
    return (
      <Section title="Two-factor authentication" id="account-two-factor">
        <Typography variant="body2" gutterBottom>
          Scan this code or add the key below to your authenticator app (1Password, Google Authenticator, Aegis…), or{" "}
          <Link href={enrolment.totpURI}>open it in the app</Link> on this device. Then enter the 6-digit code it shows.
        </Typography>
        <TotpQr uri={enrolment.totpURI} />
        <Box
          component="code"
          data-testid="totp-secret"
          aria-label="Secret key"
          sx={{ display: "block", p: 1.5, my: 1, bgcolor: "grey.100", borderRadius: 1, fontSize: 16, wordBreak: "break-all" }}
        >
          {secretOf(enrolment.totpURI)}
        </Box>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void step(async () => {
              await session.verifyTotp(code.replace(/\s+/g, ""));
              setCodes(enrolment.backupCodes);
              setEnrolment(null);
              setCode("");
              await onChange();
              notify("Two-factor authentication is on.", { type: "success" });
            }, "code");
          }}
        >
          <TextField
            id="two-factor-verify"
            label="Code from the app"
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
            fullWidth
            margin="dense"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={!!errors.code}
            helperText={errors.code}
            required
          />
          <Box sx={{ display: "flex", gap: 1, mt: 1 }}>
            <Button type="submit" variant="contained" disabled={busy}>
              Verify and turn on
            </Button>
            <Button onClick={() => setEnrolment(null)}>Cancel</Button>
          </Box>
        </form>
      </Section>
    );

  return (
    <Section title="Two-factor authentication" id="account-two-factor">
      <Typography variant="body2" gutterBottom>
        {enabled ? <Chip size="small" color="success" label="On" sx={{ mr: 1 }} /> : <Chip size="small" label="Off" sx={{ mr: 1 }} />}
        {enabled
          ? "Signing in asks for a code from your authenticator app, or a backup code."
          : "Ask for a code from an authenticator app after your password when signing in."}
      </Typography>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (enabled) return;
          void step(async () => {
            setEnrolment(await session.enableTwoFactor(password));
            setPassword("");
          }, "password");
        }}
      >
        {passwordField}
        <Box sx={{ display: "flex", gap: 1, mt: 1, flexWrap: "wrap" }}>
          {enabled ? (
            <>
              <Button
                variant="outlined"
                disabled={busy || !password}
                onClick={() =>
                  void step(async () => {
                    setCodes((await session.newBackupCodes(password)).backupCodes);
                    setPassword("");
                  }, "password")
                }
              >
                New backup codes
              </Button>
              <Button
                color="error"
                variant="outlined"
                disabled={busy || !password}
                onClick={() =>
                  void step(async () => {
                    await session.disableTwoFactor(password);
                    setPassword("");
                    await onChange();
                    notify("Two-factor authentication is off.", { type: "info" });
                  }, "password")
                }
              >
                Turn off
              </Button>
            </>
          ) : (
            <Button type="submit" variant="contained" disabled={busy}>
              Turn on
            </Button>
          )}
        </Box>
      </form>
    </Section>
  );
}
