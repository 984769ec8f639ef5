import { useState } from "react";
import { useNotify, useDataProvider, useRecordContext, useRefresh, Button } from "react-admin";
import { Box } from "@mui/material";
import FastForwardIcon from "@mui/icons-material/FastForward";
import type { TestClock } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

const STEPS: [string, (d: Date) => Date][] = [
  ["+1 day", (d) => new Date(d.getTime() + 86_400_000)],
  ["+1 week", (d) => new Date(d.getTime() + 7 * 86_400_000)],
  [
    "+1 month",
    (d) => {
      const n = new Date(d);
      n.setUTCMonth(n.getUTCMonth() + 1);
      return n;
    },
  ],
  [
    "+1 year",
    (d) => {
      const n = new Date(d);
      n.setUTCFullYear(n.getUTCFullYear() + 1);
      return n;
    },
  ],
];

export function AdvanceButtons() {
  const clock = useRecordContext<TestClock>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!clock) return null;
  const advance = async (to: Date) => {
    setBusy(true);
    try {
      await dataProvider.advanceTestClock(clock.id, to.toISOString());
      notify(`Advancing to ${to.toLocaleString()}…`, { type: "info" });
      // the clock advances in the background; follow it until it is ready again
      for (let i = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const { data: c } = await dataProvider.getOne<TestClock>("test-clocks", { id: clock.id });
        if (c.status === "ready") break;
      }
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      {STEPS.map(([label, next]) => (
        <Button
          key={label}
          label={label}
          disabled={busy || clock.status !== "ready"}
          onClick={() => void advance(next(new Date(clock.frozen_time)))}
          variant="outlined"
        >
          <FastForwardIcon />
        </Button>
      ))}
    </Box>
  );
}
