// The seats of the subscription or order on screen (a seat-based purchase only): how many are
// free, who holds them, and assigning, revoking and re-inviting.
import { useRecordContext, useTranslate } from "react-admin";
import { Alert, Box, Divider, Typography } from "@mui/material";
import type { SeatPurchase } from "../../dataProvider/seats";
import { AssignSeatForm } from "./AssignSeatForm";
import { SeatsTable } from "./SeatsTable";
import { useSeats } from "./useSeats";

export function SeatsSection({ of }: { of: "subscription" | "order" }) {
  const record = useRecordContext<{ id: string }>();
  const translate = useTranslate();
  const purchase: SeatPurchase | null = record ? (of === "subscription" ? { subscription_id: record.id } : { order_id: record.id }) : null;
  const { seats, error, hidden, reload } = useSeats(purchase);
  if (!purchase || hidden || (!seats && !error)) return null;
  return (
    <Box component="section" aria-labelledby="seats-title" sx={{ px: 2, pb: 2 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id="seats-title" variant="h6" component="h2">
        {translate("borealis.seats.title")}
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {seats ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {translate("borealis.seats.summary", { available: seats.available_seats, total: seats.total_seats })}
          </Typography>
          <AssignSeatForm purchase={purchase} onAssigned={reload} />
          <SeatsTable seats={seats.seats} onChange={reload} />
        </>
      ) : null}
    </Box>
  );
}
