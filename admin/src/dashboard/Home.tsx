// Home: revenue, orders, active subscriptions, MRR and checkouts over the last 30 days, as charts
// over GET /v1/metrics/. When the request fails, an alert shows the error's message.
import { useEffect, useState } from "react";
import { Title, useDataProvider, useGetIdentity, useGetList } from "react-admin";
import { Alert, Box, Typography } from "@mui/material";
import type { MetricsResponse } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { MetricChart } from "./MetricChart";
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
export function useCurrency(): string {
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
        {CHARTS.map((c) => (
          <MetricChart
            key={c.slug}
            title={c.title}
            kind={c.money ? "money" : "count"}
            currency={currency}
            total={state.kind === "ready" ? Number(state.data.totals[c.slug] ?? 0) : null}
            periods={
              state.kind === "ready"
                ? state.data.periods.map((p) => ({ date: p.timestamp.slice(5, 10), value: Number(p[c.slug] ?? 0) }))
                : []
            }
            loading={state.kind === "loading"}
          />
        ))}
      </Box>
    </Box>
  );
}
