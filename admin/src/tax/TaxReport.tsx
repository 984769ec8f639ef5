// The tax report: per month or quarter, currency, country, rate and taxability reason,
// the net sales and tax charged, the refunds handed back, and what is left to declare, over
// GET /v1/tax/report; exportable as CSV for an EU OSS return.
import { useEffect, useState } from "react";
import { Title } from "react-admin";
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import DownloadIcon from "@mui/icons-material/Download";
import type { TaxReport as Report, TaxReportInterval, TaxReportRow } from "../api";
import { call } from "../dataProvider/request";
import { download, toCsv } from "../common/csv";
import { formatMoney, humanize, toMajor } from "../common/format";

const FIELD = { width: { xs: "100%", sm: 180 } };
const day = (d: Date) => d.toISOString().slice(0, 10);
const percent = (basisPoints: number) => `${Number((basisPoints / 100).toFixed(2))}%`;

const AMOUNTS: { key: keyof TaxReportRow; label: string }[] = [
  { key: "sales_net_amount", label: "Net sales" },
  { key: "sales_tax_amount", label: "Tax charged" },
  { key: "refunded_net_amount", label: "Net refunded" },
  { key: "refunded_tax_amount", label: "Tax refunded" },
  { key: "net_amount", label: "Taxable amount" },
  { key: "tax_amount", label: "Tax due" },
];

/** The report as CSV: one line per period and row, amounts in major units beside their currency. */
export function reportCsv(report: Report): string {
  const header = [
    "period",
    "start_date",
    "end_date",
    "currency",
    "country",
    "state",
    "rate_percent",
    "display_name",
    "taxability_reason",
    "orders",
    "refunds",
    ...AMOUNTS.map((a) => a.key),
  ];
  const rows = report.periods.flatMap((p) =>
    p.rows.map((r) => [
      p.period,
      p.start_date,
      p.end_date,
      r.currency.toUpperCase(),
      r.country ?? "",
      r.state ?? "",
      String(r.rate_basis_points / 100),
      r.display_name ?? "",
      r.taxability_reason ?? "",
      String(r.orders),
      String(r.refunds),
      ...AMOUNTS.map((a) => String(toMajor(Number(r[a.key]), r.currency))),
    ]),
  );
  return toCsv(header, rows);
}

type State = { kind: "loading" } | { kind: "ready"; report: Report } | { kind: "error"; message: string };

export function TaxReport() {
  const now = new Date();
  const [start, setStart] = useState(day(new Date(Date.UTC(now.getUTCFullYear(), 0, 1))));
  const [end, setEnd] = useState(day(now));
  const [period, setPeriod] = useState<TaxReportInterval>("month");
  const [state, setState] = useState<State>({ kind: "loading" });

  useEffect(() => {
    if (!start || !end) return;
    let live = true;
    setState({ kind: "loading" });
    call<Report>("GET", "/v1/tax/report", { query: { start_date: start, end_date: end, interval: period } }).then(
      (report) => live && setState({ kind: "ready", report }),
      (err: Error) => live && setState({ kind: "error", message: err.message }),
    );
    return () => {
      live = false;
    };
  }, [start, end, period]);

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
            <Card key={p.period} variant="outlined" component="section" aria-labelledby={`period-${p.period}`}>
              <CardContent>
                <Typography id={`period-${p.period}`} component="h2" variant="subtitle1">
                  {p.period}{" "}
                  <Typography component="span" variant="body2" color="text.secondary">
                    ({p.start_date} to {p.end_date})
                  </Typography>
                </Typography>
                {p.rows.length === 0 ? (
                  <Typography variant="body2" color="text.secondary">
                    No sales or refunds.
                  </Typography>
                ) : (
                  // Scrolls sideways on a narrow screen: focusable, so the keyboard can scroll it too.
                  <TableContainer tabIndex={0} role="region" aria-label={`Tax for ${p.period}, scrollable`}>
                    <Table size="small" aria-label={`Tax for ${p.period}`}>
                      <TableHead>
                        <TableRow>
                          <TableCell>Country</TableCell>
                          <TableCell>Rate</TableCell>
                          <TableCell>Reason</TableCell>
                          <TableCell align="right">Orders</TableCell>
                          <TableCell align="right">Refunds</TableCell>
                          {AMOUNTS.map((a) => (
                            <TableCell key={a.key} align="right">
                              {a.label}
                            </TableCell>
                          ))}
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {p.rows.map((r) => (
                          <TableRow
                            key={`${r.currency}-${r.country}-${r.state}-${r.rate_basis_points}-${r.display_name}-${r.taxability_reason}`}
                          >
                            <TableCell>{[r.country ?? "—", r.state].filter(Boolean).join(" ")}</TableCell>
                            <TableCell>{r.display_name ?? percent(r.rate_basis_points)}</TableCell>
                            <TableCell>{r.taxability_reason ? humanize(r.taxability_reason) : "—"}</TableCell>
                            <TableCell align="right">{r.orders}</TableCell>
                            <TableCell align="right">{r.refunds}</TableCell>
                            {AMOUNTS.map((a) => (
                              <TableCell key={a.key} align="right" sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
                                {formatMoney(Number(r[a.key]), r.currency)}
                              </TableCell>
                            ))}
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </TableContainer>
                )}
              </CardContent>
            </Card>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
