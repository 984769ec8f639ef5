// An endpoint's ordered queue: the event being delivered (the head) and, when it keeps failing,
// why, with the events waiting behind it; the merchant retries the head now (a redelivery) or
// skips it so the others go on (it stays failed, to be replayed later).
import { useDataProvider, useRecordContext } from "react-admin";
import { Alert, AlertTitle, Box, List, ListItem, ListItemText, Stack, Typography } from "@mui/material";
import ReplayIcon from "@mui/icons-material/Replay";
import SkipNextIcon from "@mui/icons-material/SkipNext";
import type { WebhookEndpoint, WebhookQueuedEvent } from "../../api";
import { ConfirmAction } from "../../common/ConfirmAction";
import { facts } from "../../common/layouts";
import { formatDateTime } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";
import { useWebhookQueue } from "./useWebhookQueue";

function attemptsText(e: WebhookQueuedEvent): string {
  return e.attempts === 0
    ? "not tried yet"
    : `${e.attempts} attempt${e.attempts === 1 ? "" : "s"}, last ${formatDateTime(e.last_attempt_at)}`;
}

/** The head, when it has failed: what went wrong, how many wait behind it, and what can be done. */
function FailingHead({
  endpointId,
  head,
  behind,
  reload,
}: {
  endpointId: string;
  head: WebhookQueuedEvent;
  behind: number;
  reload: () => void;
}) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  return (
    <Alert
      severity="warning"
      action={
        <Stack direction={{ xs: "column", sm: "row" }}>
          <ConfirmAction
            label="Retry now"
            icon={<ReplayIcon />}
            title="Send this event again now?"
            content={`The ${head.type} event goes to the endpoint again at once, with the same webhook-id.`}
            run={() => dataProvider.redeliverWebhookEvent(head.id)}
            success="Event queued to be sent now"
            onDone={reload}
          />
          <ConfirmAction
            label="Skip"
            icon={<SkipNextIcon />}
            title="Skip this event?"
            content={`The ${head.type} event leaves the queue unsent and the ${behind} event(s) behind it go on. It stays failed: redeliver it, or replay failed events, to send it later.`}
            run={() => dataProvider.skipWebhookQueueHead(endpointId, head.id)}
            success="Event skipped"
            onDone={reload}
            color="warning"
          />
        </Stack>
      }
    >
      <AlertTitle>
        {head.type} is failing; {behind} event{behind === 1 ? "" : "s"} wait{behind === 1 ? "s" : ""} behind it
      </AlertTitle>
      <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
        {head.last_error}
      </Typography>
      <Typography variant="body2">{attemptsText(head)}</Typography>
    </Alert>
  );
}

export function QueueTab() {
  const endpoint = useRecordContext<WebhookEndpoint>();
  const { data, error, reload } = useWebhookQueue(endpoint?.id);
  if (!endpoint) return null;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <Typography variant="body2">Loading the queue…</Typography>;
  if (data.total === 0) return <Typography variant="body2">Nothing waiting: every event was delivered or set aside.</Typography>;
  const [head] = data.items;
  return (
    <Box data-testid="webhook-queue">
      {head.last_error ? <FailingHead endpointId={endpoint.id} head={head} behind={data.total - 1} reload={reload} /> : null}
      <Typography variant="body2" sx={{ mt: 2 }}>
        {data.total} event{data.total === 1 ? "" : "s"} in the queue, sent in this order
        {data.total > data.items.length ? ` (the first ${data.items.length} shown)` : ""}.
      </Typography>
      <List dense aria-label="Queued events">
        {data.items.map((e, i) => (
          <ListItem key={e.id} divider>
            <ListItemText
              primary={`${i + 1}. ${e.type}`}
              secondary={facts(formatDateTime(e.created_at), attemptsText(e), e.last_error)}
              slotProps={{ secondary: { sx: { wordBreak: "break-word" } } }}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
