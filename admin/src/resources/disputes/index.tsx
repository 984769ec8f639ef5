// Disputes (chargebacks): opened by the card network through the processor, listed and filtered
// here, and conceded from their page; an order's page lists its own.
import { BooleanField, Show, SimpleShowLayout, TextField } from "react-admin";
import GavelIcon from "@mui/icons-material/Gavel";
import type { Dispute } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, ShowActions, recordDetails, facts } from "../../common/layouts";
import { LinkField } from "../../common/references";
import { AcceptButton } from "./AcceptButton";

function DisputeList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (d: Dispute) => d.customer?.email ?? humanize(d.reason),
        secondaryText: (d: Dispute) => facts(humanize(d.status), d.reason, `respond by ${formatDateTime(d.evidence_due_by)}`),
        tertiaryText: (d: Dispute) => formatMoney(d.amount, d.currency),
      }}
      filters={metaFilters("disputes", ["status"])}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={[
        "id",
        "created_at",
        "status",
        "reason",
        "amount",
        "tax_amount",
        "currency",
        "evidence_due_by",
        "order_id",
        "payment_id",
      ]}
    >
      <DateTimeField source="created_at" label="Date" />
      <MoneyField source="amount" />
      <EnumField source="status" />
      <TextField source="reason" emptyText="—" sortable={false} />
      <DateTimeField source="evidence_due_by" label="Respond by" sortable={false} />
      <TextField source="customer.email" label="Customer" sortable={false} />
    </ResourceList>
  );
}

function DisputeShow() {
  return (
    <Show
      actions={
        <ShowActions>
          <AcceptButton />
        </ShowActions>
      }
    >
      <SimpleShowLayout>
        <EnumField source="status" />
        <MoneyField source="amount" />
        <MoneyField source="tax_amount" label="Tax disputed" />
        <TextField source="reason" emptyText="—" />
        <DateTimeField source="evidence_due_by" label="Respond by" />
        <BooleanField source="past_due" label="Past due" />
        <LinkField label="Order" source="order_id" reference="orders" />
        <LinkField label="Payment" source="payment_id" reference="payments" />
        <LinkField label="Customer" source="customer.id" reference="customers" text="customer.email" />
        {recordDetails({ created: "Opened", metadata: false })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: DisputeList, show: DisputeShow, icon: GavelIcon };
