import { TextField } from "@mui/material";

export function PasswordField(props: { value: string; onChange: (v: string) => void; autoComplete: string; helperText?: string }) {
  return (
    <TextField
      id="password"
      label="Password"
      type="password"
      autoComplete={props.autoComplete}
      fullWidth
      margin="dense"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required
      helperText={props.helperText}
    />
  );
}
