// Home: a new organization's checklist (for owners and admins), then revenue, orders, active
// subscriptions, MRR and checkouts, and cancellations by reason, over a range, interval and
// products chosen above them (the last 30 days by day by default), from GET /v1/metrics/. When the
// request fails, an alert shows the error's message.
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { Title, useDataProvider, useGetIdentity, useGetList } from "react-admin";
import { Alert, Box, Button, Typography } from "@mui/material";
import type { MetricsResponse } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { MetricChart } from "./MetricChart";
import { CreateOrganization } from "../settings/CreateOrganization";
import type { Identity } from "../authProvider";
import { Onboarding } from "./Onboarding";
import { MetricsFiltersBar } from "./MetricsFiltersBar";
import { CancellationReasons } from "./CancellationReasons";
import { periodLabel, rangeLabel, useMetricsFilters } from "./useMetricsFilters";

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
  const manager = me.role === "owner" || me.role === "admin";
  return <Charts onboarding={manager ? <Onboarding organizationId={me.organization.id} /> : null} />;
}

/** The alert naming why the metrics failed, when they did. */
export function MetricsError({ state }: { state: State }) {
  return state.kind === "failed" ? (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="metrics-error">
      The metrics could not be loaded: {state.message}
    </Alert>
  ) : null;
}

/** The metrics of `query` (null: no request), as a loading, ready or failed state. */
export function useMetrics(query: Record<string, unknown> | null): State {
  const [state, setState] = useState<State>({ kind: "loading" });
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!query) return;
    let live = true;
    setState({ kind: "loading" });
    dataProvider.getMetrics(query).then(
      ({ data }) => live && setState({ kind: "ready", data }),
      (err: Error) => live && setState({ kind: "failed", message: err.message }),
    );
    return () => {
      live = false;
    };
    // the query's value (key), not its identity, decides a new request
  }, [dataProvider, key]);
  return state;
}

function Charts({ onboarding }: { onboarding: React.ReactNode }) {
  const filters = useMetricsFilters();
  const state = useMetrics(filters.query);
  const currency = useCurrency();
  const { search } = useLocation();
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Home" />
      {onboarding}
      <Box sx={{ display: "flex", flexWrap: "wrap", justifyContent: "space-between", alignItems: "baseline", gap: 1 }}>
        <Typography component="h1" variant="h5" gutterBottom>
          {filters.isDefault ? "Last 30 days" : rangeLabel(filters.start, filters.end)}
        </Typography>
        <Button component={Link} to={`/metrics${search}`} size="small">
          All metrics
        </Button>
      </Box>
      <MetricsFiltersBar filters={filters} />
      <MetricsError state={state} />
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
                ? state.data.periods.map((p) => ({ date: periodLabel(p.timestamp, filters.interval), value: Number(p[c.slug] ?? 0) }))
                : []
            }
            loading={state.kind === "loading"}
          />
        ))}
        <CancellationReasons totals={state.kind === "ready" ? state.data.totals : null} />
      </Box>
    </Box>
  );
}
