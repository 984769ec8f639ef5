import { useMemo, useState } from "react";
import { useRecordContext } from "react-admin";
import { Alert, Box, Typography } from "@mui/material";
import type { Meter } from "../../api";
import { formatMeterQuantity, meterUnitFormat } from "../../common/format";
import { queryIssue } from "../../common/filterErrors";
import { QuantitiesBars } from "./QuantitiesBars";
import { QuantitiesControls } from "./QuantitiesControls";
import { QuantitiesTable } from "./QuantitiesTable";
import { windowOf, bucketLabel, type Interval } from "./quantityWindow";
import { useMeterQuantities } from "./useMeterQuantities";

/**
 * The meter's quantities over a chosen window and interval, as a bar chart or a table, and their
 * total. The server's refusal of a start, an end or an interval shows under that field.
 */
export function QuantitiesChart() {
  const meter = useRecordContext<Meter>();
  const [interval, setTimeInterval] = useState<Interval>("day");
  const [days, setDays] = useState<number | "custom">(30);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [view, setView] = useState<"chart" | "table">("chart");
  // "now" is read when the window is chosen, not at every render
  const range = useMemo(() => windowOf(days, from, to), [days, from, to]);
  const startIso = range && !Number.isNaN(range.start.getTime()) ? range.start.toISOString() : null;
  const endIso = range && !Number.isNaN(range.end.getTime()) ? range.end.toISOString() : null;
  const { data, error } = useMeterQuantities(meter, interval, startIso, endIso);
  if (!meter) return null;
  const fieldError = ["start_timestamp", "end_timestamp", "interval"].some((f) => queryIssue(error, f));
  const otherError = error && !fieldError ? error.message : null;
  const { scale, label: unitLabel } = meterUnitFormat(meter);
  const rows = data?.quantities.map((q) => ({ ...q, label: bucketLabel(q.timestamp, interval), shown: q.quantity / scale })) ?? [];
  const controls = { interval, setTimeInterval, days, setDays, from, setFrom, to, setTo, view, setView, error };
  return (
    <Box>
      <QuantitiesControls {...controls} />
      {otherError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {otherError}
        </Alert>
      ) : null}
      {days === "custom" && !range ? (
        <Typography variant="body2" color="text.secondary">
          Choose the first and the last day.
        </Typography>
      ) : null}
      {data ? (
        <>
          <Typography variant="subtitle1" gutterBottom data-testid="quantities-total">
            Total: {formatMeterQuantity(data.total, meter)}
          </Typography>
          {view === "table" ? (
            <QuantitiesTable rows={rows} interval={interval} meter={meter} />
          ) : data.quantities.some((q) => q.quantity) ? (
            <QuantitiesBars rows={rows} scale={scale} unitLabel={unitLabel} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              No usage in this window yet. Events ingested for this meter's filter show here.
            </Typography>
          )}
        </>
      ) : null}
    </Box>
  );
}
