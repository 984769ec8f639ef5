// Home: revenue, orders, active subscriptions, MRR and checkouts over the last 30 days, as charts
// over GET /v1/metrics/. When the request fails, an alert shows the error's message.
import { useEffect, useState } from "react";
import { Title, useDataProvider, useGetIdentity, useGetList } from "react-admin";
import { Alert, Box, Card, CardContent, Typography } from "@mui/material";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricsResponse } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { formatMoney } from "../common/format";
import { CreateOrganization } from "../settings/CreateOrganization";
import type { Identity } from "../authProvider";

const CHARTS: {
  slug: "revenue" | "orders" | "active_subscriptions" | "monthly_recurring_revenue" | "checkouts";
  title: string;
  money: boolean;
}[] = [
  { slug: "revenue", title: "Revenue", money: true },
  { slug: "orders", title: "Orders", money: false },
  { slug: "active_subscriptions", title: "Active subscriptions", money: false },
  { slug: "monthly_recurring_revenue", title: "Monthly recurring revenue", money: true },
  { slug: "checkouts", title: "Checkouts", money: false },
];

const day = (d: Date) => d.toISOString().slice(0, 10);

type State = { kind: "loading" } | { kind: "ready"; data: MetricsResponse } | { kind: "failed"; message: string };

/** The currency amounts are reported in: the organization's first product's, else usd. */
function useCurrency(): string {
  const { data } = useGetList("products", { pagination: { page: 1, perPage: 1 }, sort: { field: "created_at", order: "ASC" } });
  const price = data?.[0]?.prices?.find((p: { price_currency?: string }) => p.price_currency);
  return price?.price_currency ?? "usd";
}

export function Home() {
  const { data } = useGetIdentity();
  const me = data as Identity | undefined;
  if (!me) return null;
  if (!me.organization) return <CreateOrganization />;
  return <Charts />;
}

function Charts() {
  const [state, setState] = useState<State>({ kind: "loading" });
  const currency = useCurrency();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  useEffect(() => {
    const end = new Date();
    const start = new Date(end.getTime() - 29 * 86_400_000);
    dataProvider
      .getMetrics({
        start_date: day(start),
        end_date: day(end),
        interval: "day",
        timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
      })
      .then(
        ({ data }) => setState({ kind: "ready", data }),
        (err: Error) => setState({ kind: "failed", message: err.message }),
      );
  }, [dataProvider]);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Home" />
      <Typography component="h1" variant="h5" gutterBottom>
        Last 30 days
      </Typography>
      {state.kind === "failed" ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="metrics-error">
          The metrics could not be loaded: {state.message}
        </Alert>
      ) : null}
      <Box
        data-testid={state.kind === "ready" ? "metrics-ready" : undefined}
        sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr", lg: "1fr 1fr 1fr" }, gap: 2 }}
      >
        {CHARTS.map((c) => {
          const periods =
            state.kind === "ready"
              ? state.data.periods.map((p) => ({ date: p.timestamp.slice(5, 10), value: Number(p[c.slug] ?? 0) }))
              : [];
          const total = state.kind === "ready" ? Number(state.data.totals[c.slug] ?? 0) : null;
          return (
            <Card key={c.slug} variant="outlined">
              <CardContent>
                <Typography component="h2" variant="subtitle1">
                  {c.title}
                </Typography>
                <Typography variant="h5" component="p" sx={{ fontVariantNumeric: "tabular-nums" }}>
                  {total === null ? "—" : c.money ? formatMoney(total, currency) : total.toLocaleString()}
                </Typography>
                <Box sx={{ height: 140, mt: 1 }}>
                  {periods.length ? (
                    <ResponsiveContainer>
                      <AreaChart data={periods}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="date" minTickGap={20} />
                        <YAxis
                          width={48}
                          tickFormatter={(v: number) => (c.money ? formatMoney(v, currency).replace(/\.\d+$/, "") : String(v))}
                        />
                        <Tooltip formatter={(v) => (c.money ? formatMoney(Number(v), currency) : String(v))} />
                        <Area type="monotone" dataKey="value" name={c.title} stroke="#1976d2" fill="#90caf9" />
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
                        {state.kind === "loading" ? "Loading…" : "No data yet"}
                      </Typography>
                    </Box>
                  )}
                </Box>
              </CardContent>
            </Card>
          );
        })}
      </Box>
    </Box>
  );
}
