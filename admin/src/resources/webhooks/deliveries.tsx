// The deliveries inspector of one endpoint: every attempt, paged on the server (never all loaded),
// filtered by event type, outcome and date; the payload and the receiver's answer of each; redeliver
// one event, or replay every failed one matching the filter.
import { Fragment, useState } from "react";
import { useGetList, useRecordContext, useNotify } from "react-admin";
import {
  Alert,
  Box,
  Button,
  Collapse,
  FormControl,
  IconButton,
  InputLabel,
  MenuItem,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowUpIcon from "@mui/icons-material/KeyboardArrowUp";
import ReplayIcon from "@mui/icons-material/Replay";
import type { WebhookDelivery, WebhookEndpoint } from "../../api";
import { call } from "../../dataProvider/request";
import { formatDateTime, utcTitle } from "../../common/format";
import { ConfirmAction } from "../../common/ConfirmAction";
import { EVENT_TYPES } from "./events";

export interface DeliveryFilter {
  event_type: string;
  succeeded: "" | "true" | "false";
  start: string;
  end: string;
}

/** The inspector's filter as the deliveries list's query (and the replay's body). */
export function deliveryQuery(f: DeliveryFilter): Record<string, unknown> {
  return {
    ...(f.event_type ? { event_type: [f.event_type] } : {}),
    ...(f.succeeded ? { succeeded: f.succeeded === "true" } : {}),
    ...(f.start ? { start_timestamp: new Date(`${f.start}T00:00:00`).toISOString() } : {}),
    ...(f.end ? { end_timestamp: new Date(`${f.end}T23:59:59.999`).toISOString() } : {}),
  };
}

function pretty(text: string | null | undefined): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeliveryRow({ d }: { d: WebhookDelivery }) {
  const [open, setOpen] = useState(false);
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
            run={() => call("POST", "/v1/webhooks/events/{id}/redeliver", { path: { id: e.id } })}
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

export function DeliveriesInspector() {
  const endpoint = useRecordContext<WebhookEndpoint>();
  const notify = useNotify();
  const [filter, setFilter] = useState<DeliveryFilter>({ event_type: "", succeeded: "", start: "", end: "" });
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(25);
  const { data, total, isPending, error } = useGetList<WebhookDelivery>(
    "webhooks-deliveries",
    { filter: { endpoint_id: endpoint ? [endpoint.id] : [], ...deliveryQuery(filter) }, pagination: { page, perPage } },
    { enabled: !!endpoint },
  );
  if (!endpoint) return null;
  const set = (patch: Partial<DeliveryFilter>) => {
    setFilter({ ...filter, ...patch });
    setPage(1);
  };
  return (
    <Box>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mb: 2, alignItems: "center" }}>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id="dl-type">Event type</InputLabel>
          <Select labelId="dl-type" label="Event type" value={filter.event_type} onChange={(e) => set({ event_type: e.target.value })}>
            <MenuItem value="">Any</MenuItem>
            {EVENT_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 150 }}>
          <InputLabel id="dl-outcome">Outcome</InputLabel>
          <Select
            labelId="dl-outcome"
            label="Outcome"
            value={filter.succeeded}
            onChange={(e) => set({ succeeded: e.target.value as DeliveryFilter["succeeded"] })}
          >
            <MenuItem value="">Any</MenuItem>
            <MenuItem value="true">Delivered</MenuItem>
            <MenuItem value="false">Failed</MenuItem>
          </Select>
        </FormControl>
        <TextField
          size="small"
          type="date"
          label="From"
          value={filter.start}
          onChange={(e) => set({ start: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="To"
          value={filter.end}
          onChange={(e) => set({ end: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <ConfirmAction
          label="Replay failed"
          icon={<ReplayIcon />}
          title="Replay every failed event matching this filter?"
          content="Each event whose last delivery failed, of the chosen type and dates, is sent again (in order, with its own webhook-id). Delivered events are not sent again."
          run={() =>
            call<{ replayed: number }>("POST", "/v1/webhooks/endpoints/{id}/replay", {
              path: { id: endpoint.id },
              body: { ...deliveryQuery(filter), succeeded: undefined },
            })
          }
          onDone={(r) => notify(`${(r as { replayed: number }).replayed} event(s) queued again`, { type: "info" })}
          success="Replay queued"
        />
        <Button size="small" onClick={() => set({ event_type: "", succeeded: "", start: "", end: "" })}>
          Clear
        </Button>
      </Box>
      {error ? <Alert severity="error">{(error as Error).message}</Alert> : null}
      <Table size="small" aria-label="Deliveries">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>Attempted</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Outcome</TableCell>
            <TableCell>HTTP</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {(data ?? []).map((d) => (
            <DeliveryRow key={d.id} d={d} />
          ))}
          {!isPending && !data?.length ? (
            <TableRow>
              <TableCell colSpan={6}>
                <Typography variant="body2">No deliveries match.</Typography>
              </TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={total ?? 0}
        page={page - 1}
        rowsPerPage={perPage}
        rowsPerPageOptions={[10, 25, 50, 100]}
        onPageChange={(_e, p) => setPage(p + 1)}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(1);
        }}
      />
    </Box>
  );
}
