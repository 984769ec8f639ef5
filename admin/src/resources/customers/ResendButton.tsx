import { useState } from "react";
import { useRecordContext, useDataProvider, Button, useNotify, useRefresh } from "react-admin";
import SendIcon from "@mui/icons-material/Send";
import type { EmailSend } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

/** The receipts a merchant may send again (the API refuses the other kinds). */
const RESENDABLE = new Set(["order_confirmation", "subscription_cycled"]);

/** Sends a receipt again as a new email (POST /v1/emails/{id}/resend); the list then shows it. */
export function ResendButton() {
  const record = useRecordContext<EmailSend>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !RESENDABLE.has(record.kind)) return null;
  return (
    <Button
      label="Resend receipt"
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation();
        setBusy(true);
        dataProvider
          .resendEmail(record.id)
          .then(
            () => {
              notify("Receipt queued to send again", { type: "success" });
              refresh();
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
