// Revoking a seat, after a confirmation: its holder loses the seat and what it grants.
import { useDataProvider, useTranslate } from "react-admin";
import PersonRemoveIcon from "@mui/icons-material/PersonRemove";
import type { CustomerSeat } from "../../api";
import { ConfirmAction } from "../../common/ConfirmAction";
import type { BorealisDataProvider } from "../../dataProvider";

export function RevokeSeatButton({ seat, onDone }: { seat: CustomerSeat; onDone: () => Promise<void> }) {
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const translate = useTranslate();
  return (
    <ConfirmAction
      label={translate("borealis.seats.revoke")}
      icon={<PersonRemoveIcon />}
      color="error"
      title={translate("borealis.seats.revoke_title")}
      content={translate("borealis.seats.revoke_content", { holder: seat.customer_email ?? seat.email ?? "" })}
      run={() => dataProvider.revokeSeat(seat.id)}
      success={translate("borealis.seats.revoked")}
      onDone={() => void onDone()}
    />
  );
}
