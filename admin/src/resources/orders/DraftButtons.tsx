// A draft order's charge (the customer's saved card, off-session) and a paid order's receipt.
import { Button, useDataProvider, useNotify, useRecordContext } from "react-admin";
import PaymentIcon from "@mui/icons-material/Payment";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import type { Order } from "../../api";
import { ConfirmAction } from "../../common/ConfirmAction";
import { formatMoney } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";

export function FinalizeButton() {
  const order = useRecordContext<Order>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  if (!order || order.status !== "draft") return null;
  return (
    <ConfirmAction
      label="Charge saved card"
      icon={<PaymentIcon />}
      title="Charge this draft order?"
      content={`The customer's saved card is charged ${formatMoney(order.total_amount, order.currency)} now. If it is declined, the order stays a draft.`}
      run={() => dataProvider.finalizeOrder(order.id)}
      success="Order paid"
    />
  );
}

export function ReceiptButton() {
  const order = useRecordContext<Order>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  if (!order?.receipt_number) return null;
  const open = async () => {
    try {
      window.open((await dataProvider.getReceipt(order.id)).data.url, "_blank", "noopener");
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    }
  };
  return (
    <Button label="Receipt" onClick={() => void open()}>
      <ReceiptLongIcon />
    </Button>
  );
}
