import { Card, CardContent, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from "@mui/material";
import type { TaxReport as Report } from "../api";
import { formatMoney, humanize } from "../common/format";
import { AMOUNTS, percent } from "./taxReportCsv";

/** One period's rows: country, rate, reason, counts and amounts; a narrow screen scrolls it sideways. */
export function TaxPeriod({ p }: { p: Report["periods"][number] }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={`period-${p.period}`}>
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
                  <TableRow key={`${r.currency}-${r.country}-${r.state}-${r.rate_basis_points}-${r.display_name}-${r.taxability_reason}`}>
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
  );
}
