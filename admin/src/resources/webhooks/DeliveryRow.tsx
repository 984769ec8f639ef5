import { Fragment, useState } from "react";
import { useDataProvider } from "react-admin";
import { Box, Collapse, IconButton, TableCell, TableRow, Typography } from "@mui/material";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowUpIcon from "@mui/icons-material/KeyboardArrowUp";
import ReplayIcon from "@mui/icons-material/Replay";
import type { WebhookDelivery } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { formatDateTime, utcTitle } from "../../common/format";
import { ConfirmAction } from "../../common/ConfirmAction";

function pretty(text: string | null | undefined): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function DeliveryRow({ d }: { d: WebhookDelivery }) {
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const e = d.webhook_event;
  return (
    <Fragment>
      <TableRow hover>
        <TableCell padding="checkbox">
          <IconButton size="small" aria-label={open ? "Hide details" : "Show details"} aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell>
          <time dateTime={d.created_at} title={utcTitle(d.created_at)}>
            {formatDateTime(d.created_at)}
          </time>
        </TableCell>
        <TableCell>
          <code>{e.type}</code>
        </TableCell>
        <TableCell>
          {d.succeeded ? (
            <Typography component="span" color="success.main">
              Delivered
            </Typography>
          ) : (
            <Typography component="span" color="error.main">
              Failed
            </Typography>
          )}
        </TableCell>
        <TableCell>{d.http_code ?? "—"}</TableCell>
        <TableCell>
          <ConfirmAction
            label="Redeliver"
            icon={<ReplayIcon />}
            title="Send this event again?"
            content={`The ${e.type} event goes to the endpoint again, with the same webhook-id.`}
            run={() => dataProvider.redeliverWebhookEvent(e.id)}
            success="Event queued for redelivery"
          />
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={6} sx={{ py: 0, borderBottom: open ? undefined : "none" }}>
          <Collapse in={open} unmountOnExit>
            <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" }, gap: 2, py: 2 }}>
              <Box>
                <Typography variant="subtitle2">Payload</Typography>
                <Box component="pre" sx={{ bgcolor: "grey.100", p: 1, borderRadius: 1, overflow: "auto", maxHeight: 320, fontSize: 12 }}>
                  {pretty(e.payload)}
                </Box>
              </Box>
              <Box>
                <Typography variant="subtitle2">Response</Typography>
                <Box component="pre" sx={{ bgcolor: "grey.100", p: 1, borderRadius: 1, overflow: "auto", maxHeight: 320, fontSize: 12 }}>
                  {pretty(d.response) || "(no body)"}
                </Box>
                <Typography variant="caption">Event {e.id}</Typography>
              </Box>
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
}
