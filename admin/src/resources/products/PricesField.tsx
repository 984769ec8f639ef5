import { useRecordContext } from "react-admin";
import { Box, Chip, Stack, Typography } from "@mui/material";
import type { ProductPrice } from "../../api";
import { priceText } from "./priceText";

/** Every active price of the product in the record, one line each. */
export function PricesField(_props: { label?: string }) {
  const record = useRecordContext<{
    prices?: ProductPrice[];
    recurring_interval?: string | null;
    recurring_interval_count?: number | null;
  }>();
  const prices = (record?.prices ?? []).filter((p) => !p.is_archived);
  if (!prices.length) return <Typography variant="body2">—</Typography>;
  return (
    <Stack spacing={0.5}>
      {prices.map((p) => (
        <Box key={p.id} sx={{ display: "flex", gap: 1, alignItems: "center" }}>
          <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
            {priceText(p, record?.recurring_interval, record?.recurring_interval_count)}
          </Typography>
          {p.amount_type === "metered_unit" ? <Chip size="small" label="Usage" /> : null}
        </Box>
      ))}
    </Stack>
  );
}
