// Orders: filter by status, date range, customer email (the server's Borealis extensions of the
// list; a 422 about one shows under it), customer, product, billing type, discount, checkout; see the amounts and
// lines; download the invoice PDF; refund all or part with a reason (the server decides what can
// be refunded: this only asks and shows the answer).
import { submissionErrors } from "../../common/submit";
import { useState } from "react";
import {
  Button,
  Edit,
  SelectArrayInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  BooleanInput,
  required,
  minValue,
  useNotify,
  useRecordContext,
  useRefresh,
  SaveButton,
  Toolbar,
  Labeled,
} from "react-admin";
import {
  Dialog,
  DialogContent,
  DialogTitle,
  Divider,
  Grid,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import ReceiptIcon from "@mui/icons-material/Receipt";
import UndoIcon from "@mui/icons-material/Undo";
import PictureAsPdfIcon from "@mui/icons-material/PictureAsPdf";
import type { Order } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { MoneyInput, choicesOf } from "../../common/inputs";
import { formatMoney } from "../../common/format";
import { call } from "../../dataProvider/request";
import { AddressInput } from "../../common/AddressInput";
import { RelatedList, ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { CheckedTextFilter, DateTimeFilter, ShowsErrors, useServerFilterError } from "../../common/filterErrors";
import { adminResourcesByName } from "../../../../generated/admin-resources";

/** Status: any of the contract's order statuses; the server's 422 about it shows under it. */
function StatusFilter({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  useServerFilterError(source);
  return (
    <ShowsErrors>
      <SelectArrayInput source={source} label={label} choices={choicesOf(enumValues("orders", "status"))} sx={{ minWidth: 180 }} />
    </ShowsErrors>
  );
}

const OWN_FILTERS = ["status", "created_after", "created_before", "customer_email"];

const filters = [
  <StatusFilter key="status" source="status" label="Status" alwaysOn />,
  <DateTimeFilter key="created_after" source="created_after" label="From" alwaysOn />,
  <DateTimeFilter key="created_before" source="created_before" label="Until" alwaysOn />,
  <CheckedTextFilter
    key="customer_email"
    source="customer_email"
    label="Customer email"
    helperText="part of the email, any case"
    alwaysOn
  />,
  // the contract's other filters, as the generic lists render them
  ...metaFilters(
    "orders",
    ["product_billing_type"],
    (adminResourcesByName.orders?.filters ?? []).map((f) => f.name).filter((n) => !OWN_FILTERS.includes(n)),
  ),
];

function OrderList() {
  return (
    <ResourceList
      filters={filters}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={[
        "id",
        "created_at",
        "status",
        "billing_reason",
        "customer.email",
        "product.name",
        "subtotal_amount",
        "discount_amount",
        "tax_amount",
        "total_amount",
        "refunded_amount",
        "currency",
        "subscription_id",
      ]}
    >
      <DateTimeField source="created_at" label="Date" />
      <TextField source="customer.email" label="Customer" sortBy="customer" />
      <TextField source="product.name" label="Product" sortBy="product" />
      <MoneyField source="total_amount" label="Total" sortBy="amount" />
      <EnumField source="status" />
      <EnumField source="billing_reason" label="Reason" />
    </ResourceList>
  );
}

/** Refund all or part of the order; 422s land on their field, other refusals as a notification. */
function RefundButton() {
  const order = useRecordContext<Order>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!order) return null;
  const refundable = order.total_amount - order.refunded_amount;
  if (!order.paid || refundable <= 0) return null;
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
            to {formatMoney(refundable, order.currency)} can be refunded.
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
                await call("POST", "/v1/refunds/", {
                  body: {
                    order_id: order.id,
                    amount: values.amount,
                    reason: values.reason,
                    comment: values.comment || null,
                    revoke_benefits: !!values.revoke_benefits,
                  },
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

/** The invoice PDF: generated on first ask (asynchronously, by the server), then opened. */
function InvoiceButton() {
  const order = useRecordContext<Order>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!order || !order.paid) return null;
  const open = async () => {
    setBusy(true);
    try {
      if (!order.is_invoice_generated) {
        await call("POST", "/v1/orders/{id}/invoice", { path: { id: order.id } });
        // generation runs in the background: wait until the order says it is there
        for (let i = 0; i < 30; i++) {
          await new Promise((r) => setTimeout(r, 500));
          const fresh = await call<Order>("GET", "/v1/orders/{id}", { path: { id: order.id } });
          if (fresh.is_invoice_generated) break;
          if (i === 29) throw new Error("The invoice is still being generated; try again in a moment");
        }
        refresh();
      }
      const { url } = await call<{ url: string }>("GET", "/v1/orders/{id}/invoice", { path: { id: order.id } });
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

function Amounts() {
  const o = useRecordContext<Order>();
  if (!o) return null;
  // deductions shown with a minus sign, and only when there is one
  const rows: [string, number][] = [
    ["Subtotal", o.subtotal_amount],
    ["Discount", o.discount_amount ? -o.discount_amount : 0],
    ["Net", o.net_amount],
    ["Tax", o.tax_amount],
    ["Total", o.total_amount],
    ["Refunded", o.refunded_amount ? -o.refunded_amount : 0],
  ];
  return (
    <Table size="small" sx={{ maxWidth: 420 }}>
      <TableBody>
        {rows.map(([label, v]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row">
              {label}
            </TableCell>
            <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
              {formatMoney(v, o.currency)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Items() {
  const o = useRecordContext<Order>();
  if (!o) return null;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>Item</TableCell>
          <TableCell align="right">Amount</TableCell>
          <TableCell align="right">Tax</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {o.items.map((i) => (
          <TableRow key={i.id}>
            <TableCell>
              {i.label}
              {i.proration ? " (proration)" : ""}
            </TableCell>
            <TableCell align="right">{formatMoney(i.amount, o.currency)}</TableCell>
            <TableCell align="right">{formatMoney(i.tax_amount, o.currency)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function OrderShow() {
  return (
    <Show
      actions={
        <ShowActions editLabel="Billing details">
          <InvoiceButton />
          <RefundButton />
        </ShowActions>
      }
    >
      <Grid container spacing={2} sx={{ p: 2 }}>
        <Grid size={{ xs: 12, md: 7 }}>
          <SimpleShowLayout sx={{ p: 0 }}>
            <EnumField source="status" />
            <EnumField source="billing_reason" label="Reason" />
            <LinkField label="Customer" source="customer_id" reference="customers" text="customer.email" />
            <LinkField label="Product" source="product_id" reference="products" text="product.name" />
            <LinkField label="Subscription" source="subscription_id" reference="subscriptions" />
            <LinkField label="Discount" source="discount_id" reference="discounts" text="discount.name" />
            <TextField source="billing_name" label="Billing name" emptyText="—" />
            {recordDetails({ created: "Date" })}
          </SimpleShowLayout>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Labeled label="Amounts">
            <Amounts />
          </Labeled>
        </Grid>
        <Grid size={12}>
          <Typography variant="h6" component="h3">
            Items
          </Typography>
          <Items />
          <Divider sx={{ my: 2 }} />
          <Typography variant="h6" component="h3">
            Refunds
          </Typography>
          <RelatedList reference="refunds" target="order_id" label={false} rowClick={false} empty="No refunds.">
            <MoneyField source="amount" />
            <EnumField source="reason" />
            <EnumField source="status" />
            <DateTimeField source="created_at" label="Date" />
          </RelatedList>
        </Grid>
      </Grid>
    </Show>
  );
}

function OrderEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show" title="Billing details">
      <SimpleForm>
        <TextInput source="billing_name" label="Billing name" />
        <AddressInput source="billing_address" label="Billing address" />
      </SimpleForm>
    </Edit>
  );
}

export default { list: OrderList, show: OrderShow, edit: OrderEdit, icon: ReceiptIcon };
