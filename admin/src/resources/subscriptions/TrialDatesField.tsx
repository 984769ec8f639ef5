import { useRecordContext } from "react-admin";
import { Typography } from "@mui/material";
import type { Subscription } from "../../api";
import { formatDateTime } from "../../common/format";

/** A trial's dates and what became of it: the first charge ahead, converted, or ended within it. */
export function TrialDatesField(_props: { label?: string }) {
  const s = useRecordContext<Subscription>();
  if (!s?.trial_start || !s.trial_end)
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  const after =
    s.status === "trialing"
      ? s.cancel_at_period_end
        ? "then it ends, nothing charged"
        : "then the first charge"
      : s.ended_at && new Date(s.ended_at).getTime() <= new Date(s.trial_end).getTime()
        ? "ended within the trial"
        : "converted to paid";
  return (
    <Typography component="span" variant="body2" data-testid="trial-dates">
      {formatDateTime(s.trial_start)} → {formatDateTime(s.trial_end)} ({after})
    </Typography>
  );
}
