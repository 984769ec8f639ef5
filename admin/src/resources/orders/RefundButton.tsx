// Refund all or part of an order with a reason: the server decides what can be refunded. No button
// while a dispute holds the order's money (the server refuses such a refund: RefundDisputedPayment).
import { submissionErrors } from "../../common/submit";
import { useState } from "react";
import {
  Button,
  SelectInput,
  SimpleForm,
  TextInput,
  BooleanInput,
  required,
  minValue,
  useNotify,
  useRecordContext,
  useRefresh,
  useDataProvider,
  useGetList,
  SaveButton,
  Toolbar,
} from "react-admin";
import { Dialog, DialogContent, DialogTitle, Typography } from "@mui/material";
import UndoIcon from "@mui/icons-material/Undo";
import type { Dispute, Order } from "../../api";
import { enumValues } from "../../common/generic";
import { MoneyInput, choicesOf } from "../../common/inputs";
import { formatMoney } from "../../common/format";
import type { BorealisDataProvider } from "../../dataProvider";

/** The dispute statuses that hold the money: awaiting a response, under review, lost. */
const HOLDING: Dispute["status"][] = ["needs_response", "under_review", "lost"];

/** Refund all or part of the order; 422s land on their field, other refusals as a notification. */
export function RefundButton() {
  const order = useRecordContext<Order>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const disputes = useGetList<Dispute>(
    "disputes",
    { filter: { order_id: order?.id }, pagination: { page: 1, perPage: 100 } },
    { enabled: !!order?.id },
  );
  if (!order || !disputes.data) return null;
  // Counted as the server does: before tax, and never the part a wallet paid.
  const refundable = order.net_amount + order.applied_balance_amount - order.refunded_amount;
  if (!order.paid || refundable <= 0) return null;
  if (disputes.data.some((d) => HOLDING.includes(d.status))) return null;
  return (
    <>
      <Button label="Refund" onClick={() => setOpen(true)}>
        <UndoIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="refund-title" fullWidth maxWidth="sm">
        <DialogTitle id="refund-title">Refund order</DialogTitle>
        <DialogContent>
          <Typography variant="body2" gutterBottom>
            Paid {formatMoney(order.total_amount, order.currency)}; refunded so far {formatMoney(order.refunded_amount, order.currency)}. Up
            to {formatMoney(refundable, order.currency)} can be refunded, before tax
            {order.applied_balance_amount < 0 ? " (what the wallet paid stays out of it)" : ""}.
          </Typography>
          <SimpleForm
            record={{ id: order.id, amount: refundable, reason: "customer_request", revoke_benefits: false }}
            toolbar={
              <Toolbar>
                <SaveButton label="Refund" icon={<UndoIcon />} alwaysEnable />
              </Toolbar>
            }
            onSubmit={async (values: Record<string, unknown>) => {
              try {
                await dataProvider.refundOrder({
                  order_id: order.id,
                  amount: values.amount,
                  reason: values.reason,
                  comment: values.comment || null,
                  revoke_benefits: !!values.revoke_benefits,
                });
                notify(`Refunded ${formatMoney(Number(values.amount), order.currency)}`, { type: "success" });
                setOpen(false);
                refresh();
              } catch (err) {
                return submissionErrors(err, notify);
              }
            }}
          >
            <MoneyInput source="amount" label="Amount to refund" currency={order.currency} validate={[required(), minValue(1)]} />
            <SelectInput source="reason" choices={choicesOf(enumValues("refunds", "reason"))} validate={required()} />
            <TextInput source="comment" multiline fullWidth />
            <BooleanInput source="revoke_benefits" label="Revoke the benefits this order granted" />
          </SimpleForm>
        </DialogContent>
      </Dialog>
    </>
  );
}
