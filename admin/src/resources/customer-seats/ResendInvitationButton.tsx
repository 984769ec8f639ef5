// Sending a pending seat's invitation again (its link is valid for another day).
import { useState } from "react";
import { Button, useDataProvider, useNotify, useTranslate } from "react-admin";
import SendIcon from "@mui/icons-material/Send";
import type { CustomerSeat } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

export function ResendInvitationButton({ seat, onDone }: { seat: CustomerSeat; onDone: () => Promise<void> }) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      label={translate("borealis.seats.resend")}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        dataProvider
          .resendSeatInvitation(seat.id)
          .then(
            async () => {
              notify(translate("borealis.seats.resent"), { type: "success" });
              await onDone();
            },
            (err: Error) => notify(err.message, { type: "error" }),
          )
          .finally(() => setBusy(false));
      }}
    >
      <SendIcon />
    </Button>
  );
}
