import { useState } from "react";
import { useRecordContext, useDataProvider, Button, useNotify } from "react-admin";
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, Typography, Button as MuiButton } from "@mui/material";
import SupportAgentIcon from "@mui/icons-material/SupportAgent";
import type { Customer, CustomerSession } from "../../api";
import { CopyButton } from "../../common/fields";
import { formatDateTime } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";

/** A customer-portal link for this customer (a fresh customer session), shown to copy. */
export function PortalLinkButton() {
  const record = useRecordContext<Customer>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const [session, setSession] = useState<CustomerSession | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button
        label="Portal link"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          dataProvider
            .createCustomerSession(record.id)
            .then(
              ({ data }) => setSession(data),
              (e: Error) => notify(e.message, { type: "error" }),
            )
            .finally(() => setBusy(false));
        }}
      >
        <SupportAgentIcon />
      </Button>
      <Dialog open={!!session} onClose={() => setSession(null)} aria-labelledby="portal-link-title">
        <DialogTitle id="portal-link-title">Customer portal link</DialogTitle>
        <DialogContent>
          <Typography variant="body2" gutterBottom>
            Anyone with this link acts as {record.email} in the customer portal until {session ? formatDateTime(session.expires_at) : ""}.
          </Typography>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, bgcolor: "grey.100", p: 1, borderRadius: 1 }}>
            <Typography component="code" variant="body2" sx={{ wordBreak: "break-all" }} data-testid="portal-url">
              {session?.customer_portal_url}
            </Typography>
            {session ? <CopyButton value={session.customer_portal_url} label="Copy portal link" /> : null}
          </Box>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setSession(null)}>Close</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
