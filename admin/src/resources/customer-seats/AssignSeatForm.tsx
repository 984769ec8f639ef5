// Assigning a free seat by email; the server's refusal (no seat left, already holding one, a bad
// address) is said under the email field.
import { useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { Box, Button, TextField } from "@mui/material";
import type { BorealisDataProvider } from "../../dataProvider";
import type { SeatPurchase } from "../../dataProvider/seats";

export function AssignSeatForm({ purchase, onAssigned }: { purchase: SeatPurchase; onAssigned: () => Promise<void> }) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Box
      component="form"
      aria-label={translate("borealis.seats.assign_form")}
      noValidate
      sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "flex-start", my: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        dataProvider
          .assignSeat(purchase, email.trim())
          .then(
            async () => {
              notify(translate("borealis.seats.assigned"), { type: "success" });
              setEmail("");
              setProblem(null);
              await onAssigned();
            },
            (err: Error) => setProblem(err.message),
          )
          .finally(() => setBusy(false));
      }}
    >
      <TextField
        id="seat-email"
        label={translate("borealis.seats.email")}
        type="email"
        required
        size="small"
        value={email}
        error={problem !== null}
        helperText={problem ?? translate("borealis.seats.email_help")}
        onChange={(e) => {
          setEmail(e.target.value);
          setProblem(null);
        }}
        sx={{ minWidth: { xs: "100%", sm: 320 } }}
      />
      <Button type="submit" variant="contained" disabled={busy || !email.trim()}>
        {translate("borealis.seats.assign")}
      </Button>
    </Box>
  );
}
