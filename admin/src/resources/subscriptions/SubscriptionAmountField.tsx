import { useRecordContext } from "react-admin";
import { Typography } from "@mui/material";
import { MoneyField } from "../../common/fields";
import { perPeriod } from "../../common/format";

/** The amount per billing period ("$29.00 / month", "$81.00 / 3 months"). */
export function SubscriptionAmountField(_props: { label?: string; sortBy?: string }) {
  const s = useRecordContext<{ recurring_interval: string; recurring_interval_count?: number }>();
  if (!s) return null;
  return (
    <Typography component="span" variant="body2">
      <MoneyField source="amount" /> {perPeriod(s.recurring_interval, s.recurring_interval_count)}
    </Typography>
  );
}
