// Changing the password: the current one first; every other device is signed out.
import { useState } from "react";
import { useNotify } from "react-admin";
import { Button, TextField } from "@mui/material";
import { session } from "../authProvider/session";
import { Section } from "./Section";

export function PasswordCard() {
  const notify = useNotify();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (next.length < 8) return setErrors({ next: "8 characters or more." });
    setBusy(true);
    setErrors({});
    try {
      await session.changePassword(current, next);
      setCurrent("");
      setNext("");
      notify("Your password is changed; your other devices are signed out.", { type: "success" });
    } catch (e) {
      const message = (e as Error).message;
      setErrors(/password is too|too short|too long/i.test(message) ? { next: message } : { current: message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Password" id="account-password">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField
          id="account-current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          fullWidth
          margin="dense"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={!!errors.current}
          helperText={errors.current}
          required
        />
        <TextField
          id="account-new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          fullWidth
          margin="dense"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={!!errors.next}
          helperText={errors.next ?? "8 characters or more"}
          required
        />
        <Button type="submit" variant="outlined" disabled={busy} sx={{ mt: 1 }}>
          Change password
        </Button>
      </form>
    </Section>
  );
}
