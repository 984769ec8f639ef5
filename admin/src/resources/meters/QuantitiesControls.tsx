import { Box, MenuItem, TextField as MuiTextField, ToggleButton, ToggleButtonGroup } from "@mui/material";
import { humanize } from "../../common/format";
import { queryIssue } from "../../common/filterErrors";
import { INTERVALS, WINDOWS, type Interval } from "./quantityWindow";

interface QuantitiesControlsProps {
  interval: Interval;
  setTimeInterval: (i: Interval) => void;
  days: number | "custom";
  setDays: (d: number | "custom") => void;
  from: string;
  setFrom: (d: string) => void;
  to: string;
  setTo: (d: string) => void;
  view: "chart" | "table";
  setView: (v: "chart" | "table") => void;
  error: Error | null;
}

/** The interval, the window (or typed dates) and chart-or-table; the server's refusals under their field. */
export function QuantitiesControls(p: QuantitiesControlsProps) {
  const startError = queryIssue(p.error, "start_timestamp");
  const endError = queryIssue(p.error, "end_timestamp");
  const intervalError = queryIssue(p.error, "interval");
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mb: 2, alignItems: "flex-start" }}>
      <MuiTextField
        select
        size="small"
        sx={{ width: 180 }}
        label="Interval"
        value={p.interval}
        onChange={(e) => p.setTimeInterval(e.target.value as Interval)}
        error={!!intervalError}
        helperText={intervalError}
      >
        {INTERVALS.map((i) => (
          <MenuItem key={i} value={i}>
            {humanize(i)}
          </MenuItem>
        ))}
      </MuiTextField>
      <MuiTextField
        select
        size="small"
        sx={{ width: 180 }}
        label="Window"
        value={p.days}
        onChange={(e) => p.setDays(e.target.value === "custom" ? "custom" : Number(e.target.value))}
      >
        {WINDOWS.map((d) => (
          <MenuItem key={d} value={d}>
            Last {d} day{d > 1 ? "s" : ""}
          </MenuItem>
        ))}
        <MenuItem value="custom">Dates…</MenuItem>
      </MuiTextField>
      {p.days === "custom" ? (
        <>
          <MuiTextField
            size="small"
            sx={{ width: 180 }}
            type="date"
            label="From"
            value={p.from}
            onChange={(e) => p.setFrom(e.target.value)}
            error={!!startError}
            helperText={startError}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <MuiTextField
            size="small"
            sx={{ width: 180 }}
            type="date"
            label="To"
            value={p.to}
            onChange={(e) => p.setTo(e.target.value)}
            error={!!endError}
            helperText={endError}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      ) : null}
      <ToggleButtonGroup
        size="small"
        exclusive
        value={p.view}
        onChange={(_e, v: "chart" | "table" | null) => v && p.setView(v)}
        aria-label="Show as"
      >
        <ToggleButton value="chart">Chart</ToggleButton>
        <ToggleButton value="table">Table</ToggleButton>
      </ToggleButtonGroup>
    </Box>
  );
}
