import { Box } from "@mui/material";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { QuantityRow } from "./quantityWindow";

/** The bars, in the meter's unit (per 1M tokens, per a custom multiplier). */
export function QuantitiesBars({ rows, scale, unitLabel }: { rows: QuantityRow[]; scale: number; unitLabel: string | null }) {
  return (
    <Box sx={{ width: "100%", height: 260 }}>
      <ResponsiveContainer>
        <BarChart data={rows}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" minTickGap={16} />
          <YAxis allowDecimals={scale > 1} />
          <Tooltip />
          <Bar dataKey="shown" name={unitLabel ? `Quantity (${unitLabel})` : "Quantity"} fill="#1976d2" />
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
