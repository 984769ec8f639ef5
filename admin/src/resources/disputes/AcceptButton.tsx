// Concede a dispute awaiting a response: the processor closes it as lost (pessimistic: waits for the server).
import { useDataProvider, useRecordContext } from "react-admin";
import GavelIcon from "@mui/icons-material/Gavel";
import type { Dispute } from "../../api";
import { ConfirmAction } from "../../common/ConfirmAction";
import { formatMoney } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";

export function AcceptButton() {
  const record = useRecordContext<Dispute>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  if (!record || record.status !== "needs_response") return null;
  return (
    <ConfirmAction
      label="Accept"
      icon={<GavelIcon />}
      color="warning"
      title="Accept this dispute?"
      content={`The dispute closes as lost: ${formatMoney(record.amount + record.tax_amount, record.currency)} goes back to the card holder, and what the order bought is revoked.`}
      run={() => dataProvider.acceptDispute(record.id)}
      success="Dispute accepted"
    />
  );
}
