// The fields of a new account, on the sign-up page and from an invitation: a name, the email
// (editable or fixed), a new password, and the button that creates it.
import type { ReactNode } from "react";
import { Button, TextField } from "@mui/material";
import { PasswordField } from "./PasswordField";

export function SignUpFields(props: {
  name: string;
  onName: (v: string) => void;
  email: ReactNode;
  password: string;
  onPassword: (v: string) => void;
  busy: boolean;
  submit: string;
}) {
  return (
    <>
      <TextField
        id="name"
        label="Your name"
        autoComplete="name"
        fullWidth
        margin="dense"
        value={props.name}
        onChange={(e) => props.onName(e.target.value)}
        required
      />
      {props.email}
      <PasswordField value={props.password} onChange={props.onPassword} autoComplete="new-password" helperText="8 characters or more" />
      <Button type="submit" variant="contained" fullWidth disabled={props.busy} sx={{ mt: 2 }}>
        {props.submit}
      </Button>
    </>
  );
}
