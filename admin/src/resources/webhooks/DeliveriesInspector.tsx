// The deliveries inspector of one endpoint: every attempt, paged on the server (never all loaded),
// filtered by event type, outcome and date; the payload and the receiver's answer of each; redeliver
// one event, or replay every failed one matching the filter.
import { useState } from "react";
import { useDataProvider, useGetList, useRecordContext, useNotify } from "react-admin";
import {
  Alert,
  Box,
  Button,
  FormControl,
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
import ReplayIcon from "@mui/icons-material/Replay";
import type { WebhookDelivery, WebhookEndpoint } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";
import { EVENT_TYPES } from "./events";
import { DeliveryRow } from "./DeliveryRow";
import { deliveryQuery, type DeliveryFilter } from "./deliveryQuery";

export function DeliveriesInspector() {
  const endpoint = useRecordContext<WebhookEndpoint>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
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
            dataProvider.replayWebhookEndpoint(endpoint.id, { ...deliveryQuery(filter), succeeded: undefined }).then(({ data }) => data)
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
