// Saved metric dashboards: the organization's dashboards, each a name and the metrics it shows,
// drawn over the last 30 days as Home's are; a new one is named and given its metrics here (a 422
// lands on its field), and the one shown can be deleted.
import { useCallback, useEffect, useState } from "react";
import {
  AutocompleteArrayInput,
  Button,
  SaveButton,
  SimpleForm,
  TextInput,
  Title,
  Toolbar,
  required,
  useDataProvider,
  useNotify,
} from "react-admin";
import { Alert, Box, Card, CardContent, ToggleButton, ToggleButtonGroup, Typography } from "@mui/material";
import DeleteIcon from "@mui/icons-material/Delete";
import type { MetricDashboardSchema, MetricsResponse } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { submissionErrors } from "../common/submit";
import { MetricChart, type MetricKind } from "./MetricChart";
import { useCurrency } from "./Home";

type Slug = keyof MetricsResponse["totals"];

const day = (d: Date) => d.toISOString().slice(0, 10);
const KINDS: Record<string, MetricKind> = { currency: "money", scalar: "count", percentage: "percentage" };

export function Dashboards() {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const currency = useCurrency();
  const [metrics, setMetrics] = useState<MetricsResponse | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [dashboards, setDashboards] = useState<MetricDashboardSchema[] | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  const load = useCallback(
    () =>
      dataProvider.listMetricDashboards().then(
        ({ data }) => setDashboards(data),
        (err: Error) => setFailed(err.message),
      ),
    [dataProvider],
  );
  useEffect(() => {
    const end = new Date();
    const start = new Date(end.getTime() - 29 * 86_400_000);
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    dataProvider.getMetrics({ start_date: day(start), end_date: day(end), interval: "day", timezone }).then(
      ({ data }) => setMetrics(data),
      (err: Error) => setFailed(err.message),
    );
    void load();
  }, [dataProvider, load]);

  const current = dashboards?.find((d) => d.id === shown) ?? dashboards?.[0] ?? null;
  const choices = metrics ? Object.values(metrics.metrics).map((m) => ({ id: m.slug, name: m.display_name })) : [];

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Dashboards" />
      <Typography component="h1" variant="h5" gutterBottom>
        Dashboards: last 30 days
      </Typography>
      {failed ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failed}
        </Alert>
      ) : null}
      {dashboards?.length ? (
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1, mb: 2 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={current?.id ?? null}
            onChange={(_e, id: string | null) => id && setShown(id)}
            aria-label="Dashboard"
            sx={{ flexWrap: "wrap" }}
          >
            {dashboards.map((d) => (
              <ToggleButton key={d.id} value={d.id}>
                {d.name}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {current ? (
            <Button
              label={`Delete ${current.name}`}
              onClick={async () => {
                try {
                  await dataProvider.deleteMetricDashboard(current.id);
                  notify("Dashboard deleted", { type: "info" });
                  setShown(null);
                  await load();
                } catch (err) {
                  notify(err instanceof Error ? err.message : String(err), { type: "error" });
                }
              }}
            >
              <DeleteIcon />
            </Button>
          ) : null}
        </Box>
      ) : dashboards ? (
        <Typography sx={{ mb: 2 }} color="text.secondary">
          No dashboard saved yet.
        </Typography>
      ) : null}
      {current ? (
        <Box
          data-testid={metrics ? "dashboard-ready" : undefined}
          sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "1fr 1fr", lg: "1fr 1fr 1fr" }, gap: 2, mb: 3 }}
        >
          {current.metrics.map((slug) => {
            const meta = metrics?.metrics[slug as Slug];
            return (
              <MetricChart
                key={slug}
                title={meta?.display_name ?? slug}
                kind={KINDS[meta?.type ?? "scalar"] ?? "count"}
                currency={currency}
                total={metrics ? Number(metrics.totals[slug as Slug] ?? 0) : null}
                periods={
                  metrics ? metrics.periods.map((p) => ({ date: p.timestamp.slice(5, 10), value: Number(p[slug as Slug] ?? 0) })) : []
                }
                loading={!metrics && !failed}
              />
            );
          })}
        </Box>
      ) : null}
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <CardContent>
          <Typography component="h2" variant="subtitle1">
            New dashboard
          </Typography>
          <SimpleForm
            record={{ name: "", metrics: [] }}
            toolbar={
              <Toolbar>
                <SaveButton label="Save dashboard" alwaysEnable />
              </Toolbar>
            }
            onSubmit={async (values: Record<string, unknown>) => {
              try {
                const { data } = await dataProvider.createMetricDashboard({
                  name: String(values.name ?? ""),
                  metrics: (values.metrics as string[] | undefined) ?? [],
                });
                notify("Dashboard saved", { type: "success" });
                setShown(data.id);
                await load();
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            <TextInput source="name" validate={required()} fullWidth />
            <AutocompleteArrayInput source="metrics" choices={choices} helperText="at most 10" fullWidth />
          </SimpleForm>
        </CardContent>
      </Card>
    </Box>
  );
}
