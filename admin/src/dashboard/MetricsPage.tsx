// The metrics page: any of metrics:get's metrics charted over the chosen range, interval and
// products, against the period of the same length just before; and every metric's total in a
// table with the previous period's and the change, where a row's button charts it.
import { useState } from "react";
import { Title } from "react-admin";
import {
  Box,
  Button,
  Card,
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
import type { MetricsResponse } from "../api";
import { MetricsFiltersBar } from "./MetricsFiltersBar";
import { CancellationReasons } from "./CancellationReasons";
import { change, formatMetric, MetricChart, type MetricKind } from "./MetricChart";
import { MetricsError, useCurrency, useMetrics } from "./Home";
import { periodLabel, rangeLabel, useMetricsFilters } from "./useMetricsFilters";

type Slug = keyof MetricsResponse["totals"];
const KINDS: Record<string, MetricKind> = { currency: "money", scalar: "count", percentage: "percentage" };

export function MetricsPage() {
  const filters = useMetricsFilters();
  const current = useMetrics(filters.query);
  const previous = useMetrics(filters.previousQuery);
  const currency = useCurrency();
  const [slug, setSlug] = useState<Slug>("revenue");

  const report = current.kind === "ready" ? current.data : null;
  const before = filters.previousQuery && previous.kind === "ready" ? previous.data : null;
  const list = report ? Object.values(report.metrics) : [];
  const meta = report?.metrics[slug];
  const kind = KINDS[meta?.type ?? "scalar"] ?? "count";
  const previousLabel = filters.previousStart && filters.previousEnd ? rangeLabel(filters.previousStart, filters.previousEnd) : "";

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Metrics" />
      <Typography component="h1" variant="h5" gutterBottom>
        Metrics: {rangeLabel(filters.start, filters.end)}
      </Typography>
      <MetricsFiltersBar filters={filters} />
      <MetricsError state={current} />
      {filters.query && !filters.previousQuery ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          No previous period to compare with: metrics start on 1 January 2023.
        </Typography>
      ) : null}
      <TextField
        select
        label="Metric"
        size="small"
        value={list.length ? slug : ""}
        onChange={(e) => setSlug(e.target.value as Slug)}
        sx={{ mb: 2, width: { xs: "100%", sm: 360 } }}
      >
        {list.map((m) => (
          <MenuItem key={m.slug} value={m.slug}>
            {m.display_name}
          </MenuItem>
        ))}
      </TextField>
      <Box data-testid={report ? "metrics-ready" : undefined} sx={{ mb: 3 }}>
        <MetricChart
          title={meta?.display_name ?? "Revenue"}
          kind={kind}
          currency={currency}
          total={report ? Number(report.totals[slug] ?? 0) : null}
          periods={
            report ? report.periods.map((p) => ({ date: periodLabel(p.timestamp, filters.interval), value: Number(p[slug] ?? 0) })) : []
          }
          loading={current.kind === "loading"}
          previous={
            before
              ? { values: before.periods.map((p) => Number(p[slug] ?? 0)), total: Number(before.totals[slug] ?? 0), label: previousLabel }
              : null
          }
          height={260}
        />
      </Box>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", lg: "2fr 1fr" }, gap: 2, alignItems: "start" }}>
        <Card variant="outlined">
          <Typography component="h2" variant="subtitle1" sx={{ px: 2, pt: 2 }}>
            Every metric
          </Typography>
          <TableContainer>
            <Table size="small" aria-label="Every metric">
              <TableHead>
                <TableRow>
                  <TableCell>Metric</TableCell>
                  <TableCell align="right">This period</TableCell>
                  <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>
                    Previous period
                  </TableCell>
                  <TableCell align="right">Change</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((m) => {
                  const k = KINDS[m.type] ?? "count";
                  const now = Number(report?.totals[m.slug as Slug] ?? 0);
                  const then = before ? Number(before.totals[m.slug as Slug] ?? 0) : null;
                  return (
                    <TableRow key={m.slug} selected={m.slug === slug}>
                      <TableCell>
                        <Button
                          size="small"
                          onClick={() => setSlug(m.slug as Slug)}
                          aria-pressed={m.slug === slug}
                          sx={{ textTransform: "none", textAlign: "left", p: 0, minWidth: 0 }}
                        >
                          {m.display_name}
                        </Button>
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {formatMetric(now, k, currency)}
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums", display: { xs: "none", sm: "table-cell" } }}>
                        {then === null ? "—" : formatMetric(then, k, currency)}
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {then === null ? "—" : (change(now, then) ?? "new")}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </Card>
        <CancellationReasons totals={report?.totals ?? null} />
      </Box>
    </Box>
  );
}
