import { useRecordContext } from "react-admin";
import { Typography } from "@mui/material";
import { formatMoney, valueAt } from "../format";
import type { SourceProps } from "./SourceProps";

/** Integer minor units at `source`, in the currency at `currencySource` (default: the record's `currency`). */
export function MoneyField({
  source,
  currencySource = "currency",
  currency,
}: SourceProps & { currencySource?: string; currency?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const value = valueAt(record, source);
  const cur = currency ?? (valueAt(record, currencySource) as string | undefined);
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
      {typeof value === "number" ? formatMoney(value, cur) : "—"}
    </Typography>
  );
}
