// Canceled subscriptions by the reason their customers gave, over the chosen range (metrics:get's
// canceled_subscriptions_<reason> totals): a row per reason with its count and share, and those
// who gave none.
import { Box, Card, CardContent, Typography } from "@mui/material";
import type { MetricsResponse } from "../api";

const REASONS = [
  ["too_expensive", "Too expensive"],
  ["missing_features", "Missing features"],
  ["switched_service", "Switched to another service"],
  ["unused", "Not used enough"],
  ["customer_service", "Customer service"],
  ["low_quality", "Low quality"],
  ["too_complex", "Too complex"],
  ["other", "Other"],
] as const;

type Totals = MetricsResponse["totals"];

export function CancellationReasons({ totals }: { totals: Totals | null }) {
  const all = Number(totals?.canceled_subscriptions ?? 0);
  const rows: { label: string; count: number }[] = REASONS.map(([slug, label]) => ({
    label,
    count: Number(totals?.[`canceled_subscriptions_${slug}` as keyof Totals] ?? 0),
  }));
  const unstated = all - rows.reduce((n, r) => n + r.count, 0);
  const shown = [...rows.filter((r) => r.count > 0).sort((a, b) => b.count - a.count)];
  if (unstated > 0) shown.push({ label: "No reason given", count: unstated });
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography component="h2" variant="subtitle1">
          Cancellations by reason
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {totals ? all.toLocaleString() : "—"}
        </Typography>
        {totals && all === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No subscription was canceled in this range.
          </Typography>
        ) : null}
        {shown.length ? (
          <Box component="ul" aria-label="Cancellations by reason" sx={{ listStyle: "none", p: 0, m: 0, mt: 1 }}>
            {shown.map((r) => (
              <Box component="li" key={r.label} sx={{ mb: 1 }}>
                <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1 }}>
                  <Typography variant="body2">{r.label}</Typography>
                  <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
                    {r.count} ({Math.round((r.count / all) * 100)}%)
                  </Typography>
                </Box>
                <Box aria-hidden sx={{ height: 6, bgcolor: "grey.200", borderRadius: 1 }}>
                  <Box sx={{ height: 6, width: `${(r.count / all) * 100}%`, bgcolor: "primary.main", borderRadius: 1 }} />
                </Box>
              </Box>
            ))}
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}
