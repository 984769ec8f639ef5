// The tax report: per month or quarter, currency, country, rate and taxability reason,
// the net sales and tax charged, the refunds handed back, and what is left to declare, over
// GET /v1/tax/report; exportable as CSV for an EU OSS return.
import { useEffect, useState } from "react";
import { Title, useDataProvider } from "react-admin";
import { Alert, Box, Button, MenuItem, TextField, Typography } from "@mui/material";
import DownloadIcon from "@mui/icons-material/Download";
import type { TaxReport as Report, TaxReportInterval } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { download } from "../common/csv";
import { TaxPeriod } from "./TaxPeriod";
import { reportCsv } from "./taxReportCsv";

const FIELD = { width: { xs: "100%", sm: 180 } };

const day = (d: Date) => d.toISOString().slice(0, 10);

type State = { kind: "loading" } | { kind: "ready"; report: Report } | { kind: "error"; message: string };

export function TaxReport() {
  const now = new Date();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [start, setStart] = useState(day(new Date(Date.UTC(now.getUTCFullYear(), 0, 1))));
  const [end, setEnd] = useState(day(now));
  const [period, setPeriod] = useState<TaxReportInterval>("month");
  const [state, setState] = useState<State>({ kind: "loading" });

  useEffect(() => {
    if (!start || !end) return;
    let live = true;
    setState({ kind: "loading" });
    dataProvider.getTaxReport({ start_date: start, end_date: end, interval: period }).then(
      ({ data: report }) => live && setState({ kind: "ready", report }),
      (err: Error) => live && setState({ kind: "error", message: err.message }),
    );
    return () => {
      live = false;
    };
  }, [dataProvider, start, end, period]);

  const report = state.kind === "ready" ? state.report : null;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Tax report" />
      <Typography component="h1" variant="h5" gutterBottom>
        Tax report
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Paid orders per period, country and rate (UTC). A refund counts in the period it was made, against its order's country and rate.
      </Typography>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center", mb: 2 }}>
        <TextField
          label="From"
          type="date"
          size="small"
          value={start}
          onChange={(e) => setStart(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth={false}
          sx={FIELD}
        />
        <TextField
          label="To"
          type="date"
          size="small"
          value={end}
          onChange={(e) => setEnd(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth={false}
          sx={FIELD}
        />
        <TextField
          select
          label="Period"
          size="small"
          value={period}
          onChange={(e) => setPeriod(e.target.value === "quarter" ? "quarter" : "month")}
          fullWidth={false}
          sx={FIELD}
        >
          <MenuItem value="month">Month</MenuItem>
          <MenuItem value="quarter">Quarter</MenuItem>
        </TextField>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!report}
          onClick={() => report && download(`tax-report-${report.start_date}-${report.end_date}-${report.interval}.csv`, reportCsv(report))}
        >
          Download CSV
        </Button>
      </Box>
      {state.kind === "error" ? <Alert severity="error">{state.message}</Alert> : null}
      {report ? (
        <Box data-testid="tax-report" sx={{ display: "grid", gap: 2 }}>
          {report.periods.map((p) => (
            <TaxPeriod key={p.period} p={p} />
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
