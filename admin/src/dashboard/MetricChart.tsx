// One metric as a card: its title, its total over the range, and an area chart of its periods
// (Home's charts and the saved dashboards'). Money in the organization's currency, fractions as
// percentages.
import { Box, Card, CardContent, Typography } from "@mui/material";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "../common/format";

export type MetricKind = "money" | "count" | "percentage";

export function MetricChart({
  title,
  kind,
  currency,
  total,
  periods,
  loading,
}: {
  title: string;
  kind: MetricKind;
  currency: string;
  /** null while loading or when the metrics failed */
  total: number | null;
  periods: { date: string; value: number }[];
  loading: boolean;
}) {
  const format = (v: number) =>
    kind === "money" ? formatMoney(v, currency) : kind === "percentage" ? `${(v * 100).toFixed(1)}%` : v.toLocaleString();
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography component="h2" variant="subtitle1">
          {title}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {total === null ? "—" : format(total)}
        </Typography>
        <Box sx={{ height: 140, mt: 1 }}>
          {periods.length ? (
            <ResponsiveContainer>
              <AreaChart data={periods}>
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
