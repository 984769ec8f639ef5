// Refunds: made from an order's page; listed and filtered here.
import { Show, SimpleShowLayout, BooleanField } from "react-admin";
import UndoIcon from "@mui/icons-material/Undo";
import type { Refund } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { formatDateTime, formatMoney, humanize } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { ResourceList, recordDetails, facts } from "../../common/layouts";
import { LinkField, ReferenceNameField } from "../../common/references";

function RefundList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (r: Refund) => humanize(r.reason),
        secondaryText: (r: Refund) => facts(humanize(r.status), formatDateTime(r.created_at)),
        tertiaryText: (r: Refund) => formatMoney(r.amount, r.currency),
      }}
      filters={metaFilters("refunds", ["succeeded"])}
      sort={{ field: "created_at", order: "DESC" }}
      create={false}
      exportFields={["id", "created_at", "status", "reason", "amount", "tax_amount", "currency", "order_id", "customer_id"]}
    >
      <DateTimeField source="created_at" label="Date" />
      <MoneyField source="amount" />
      <EnumField source="reason" />
      <EnumField source="status" />
      <LinkField label="Order" source="order_id" reference="orders">
        View order
      </LinkField>
    </ResourceList>
  );
}

function RefundShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <MoneyField source="amount" />
        <MoneyField source="tax_amount" label="Tax refunded" />
        <EnumField source="reason" />
        <EnumField source="status" />
        <BooleanField source="revoke_benefits" label="Benefits revoked" />
        <LinkField label="Order" source="order_id" reference="orders" />
        <ReferenceNameField label="Customer" source="customer_id" reference="customers" />
        {recordDetails({ created: "Date" })}
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: RefundList, show: RefundShow, icon: UndoIcon };
