import { useState } from "react";
import { Button, useNotify, useRecordContext, useRefresh, useDataProvider } from "react-admin";
import PictureAsPdfIcon from "@mui/icons-material/PictureAsPdf";
import type { Order } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";

/** The invoice PDF: generated on first ask (asynchronously, by the server), then opened. */
export function InvoiceButton() {
  const order = useRecordContext<Order>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!order || !order.paid) return null;
  const open = async () => {
    setBusy(true);
    try {
      if (!order.is_invoice_generated) {
        await dataProvider.generateInvoice(order.id);
        // generation runs in the background: wait until the order says it is there
        for (let i = 0; i < 30; i++) {
          await new Promise((r) => setTimeout(r, 500));
          const { data: fresh } = await dataProvider.getOne<Order>("orders", { id: order.id });
          if (fresh.is_invoice_generated) break;
          if (i === 29) throw new Error("The invoice is still being generated; try again in a moment");
        }
        refresh();
      }
      const { url } = (await dataProvider.getInvoice(order.id)).data;
      window.open(url, "_blank", "noopener");
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={busy ? "Preparing invoice…" : "Invoice"} onClick={() => void open()} disabled={busy}>
      <PictureAsPdfIcon />
    </Button>
  );
}
