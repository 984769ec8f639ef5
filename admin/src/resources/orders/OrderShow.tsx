import { FunctionField, Labeled, Show, SimpleShowLayout, TextField } from "react-admin";
import { Divider, Grid, Typography } from "@mui/material";
import type { Order } from "../../api";
import { addressText, countryName, taxIdText } from "../../common/address";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { humanize } from "../../common/format";
import { RelatedList, ShowActions, recordDetails } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { SeatsSection } from "../customer-seats";
import { Amounts } from "./Amounts";
import { FinalizeButton, ReceiptButton } from "./DraftButtons";
import { InvoiceButton } from "./InvoiceButton";
import { Items } from "./Items";
import { RefundButton } from "./RefundButton";

/** The tax the order carries and why: "VAT 20% (France)", "Reverse charge"; "—" when none was computed. */
function taxText(o: Order): string {
  const reason = o.taxability_reason && o.taxability_reason !== "standard_rated" ? humanize(o.taxability_reason) : null;
  return [o.tax_rate?.display_name, reason].filter(Boolean).join(" · ") || "—";
}

export function OrderShow() {
  return (
    <Show
      actions={
        <ShowActions editLabel="Billing details">
          <FinalizeButton />
          <InvoiceButton />
          <ReceiptButton />
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
            <FunctionField label="Billing address" render={(o: Order) => addressText(o.billing_address)} />
            <FunctionField label="Country" render={(o: Order) => countryName(o.billing_address?.country)} />
            <FunctionField label="Tax ID" render={(o: Order) => taxIdText(o.customer.tax_id)} />
            <FunctionField label="Tax" render={(o: Order) => taxText(o)} />
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
          <Divider sx={{ my: 2 }} />
          <Typography variant="h6" component="h3">
            Disputes
          </Typography>
          <RelatedList reference="disputes" target="order_id" label={false} empty="No disputes.">
            <MoneyField source="amount" />
            <EnumField source="status" />
            <TextField source="reason" emptyText="—" sortable={false} />
            <DateTimeField source="evidence_due_by" label="Respond by" />
            <DateTimeField source="created_at" label="Date" />
          </RelatedList>
        </Grid>
      </Grid>
      <SeatsSection of="order" />
    </Show>
  );
}
