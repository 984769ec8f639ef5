import { TextField } from "@mui/material";

export function EmailField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <TextField
      id="email"
      label="Email"
      type="email"
      autoComplete="email"
      fullWidth
      margin="dense"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required
    />
  );
}
