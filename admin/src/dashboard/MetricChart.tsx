// One metric as a card: its title, its total over the range, and an area chart of its periods
// (Home's charts, the saved dashboards' and the metrics page's). Given the previous period, it
// draws it as a dashed line and says the change. Money in the organization's currency, fractions
// as percentages.
import { Box, Card, CardContent, Typography } from "@mui/material";
import { Area, AreaChart, CartesianGrid, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "../common/format";

export type MetricKind = "money" | "count" | "percentage";

export interface PreviousPeriod {
  /** The previous period's values, period by period (its first with this one's first). */
  values: number[];
  total: number;
  /** The previous period's range, as the reader reads it. */
  label: string;
}

/** The change from `before` to `now` as a signed percentage, or null when there was nothing before. */
export function change(now: number, before: number): string | null {
  if (before === 0) return now === 0 ? "±0%" : null;
  const pct = ((now - before) / Math.abs(before)) * 100;
  return `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct).toFixed(1)}%`;
}

export function formatMetric(v: number, kind: MetricKind, currency: string): string {
  return kind === "money" ? formatMoney(v, currency) : kind === "percentage" ? `${(v * 100).toFixed(1)}%` : v.toLocaleString();
}

export function MetricChart({
  title,
  kind,
  currency,
  total,
  periods,
  loading,
  previous,
  height = 140,
  headingLevel = "h2",
}: {
  title: string;
  kind: MetricKind;
  currency: string;
  /** null while loading or when the metrics failed */
  total: number | null;
  periods: { date: string; value: number }[];
  loading: boolean;
  previous?: PreviousPeriod | null;
  height?: number;
  headingLevel?: "h2" | "h3";
}) {
  const format = (v: number) => formatMetric(v, kind, currency);
  const data = previous ? periods.map((p, i) => Object.assign({ previous: previous.values[i] ?? null }, p)) : periods;
  const delta = previous && total !== null ? change(total, previous.total) : null;
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography component={headingLevel} variant="subtitle1">
          {title}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {total === null ? "—" : format(total)}
        </Typography>
        {previous && total !== null ? (
          <Typography variant="body2" color="text.secondary" data-testid="metric-previous">
            {format(previous.total)} in {previous.label}
            {delta ? ` (${delta})` : ""}
          </Typography>
        ) : null}
        <Box sx={{ height, mt: 1 }}>
          {periods.length ? (
            <ResponsiveContainer>
              <AreaChart data={data}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" minTickGap={20} />
                <YAxis
                  width={48}
                  tickFormatter={(v: number) =>
                    kind === "money"
                      ? formatMoney(v, currency).replace(/\.\d+$/, "")
                      : kind === "percentage"
                        ? `${Math.round(v * 100)}%`
                        : String(v)
                  }
                />
                <Tooltip formatter={(v) => format(Number(v))} />
                <Area type="monotone" dataKey="value" name={title} stroke="#1976d2" fill="#90caf9" />
                {previous ? (
                  <Line type="monotone" dataKey="previous" name="Previous period" stroke="#616161" strokeDasharray="5 4" dot={false} />
                ) : null}
                {previous ? <Legend /> : null}
              </AreaChart>
            </ResponsiveContainer>
          ) : (
            <Box
              sx={{
                height: "100%",
                display: "flex",
                alignItems: "center",
                justifyContent: "center",
                bgcolor: "grey.50",
                borderRadius: 1,
              }}
            >
              <Typography variant="body2" color="text.secondary">
                {loading ? "Loading…" : "No data yet"}
              </Typography>
            </Box>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
