import { FunctionField, ReferenceManyField, Show, Tab, TabbedShowLayout, TextField, Pagination } from "react-admin";
import type { Customer } from "../../api";
import { DateTimeField, EnumField, MoneyField } from "../../common/fields";
import { RelatedList, ShowActions, recordDetails } from "../../common/layouts";
import { CustomerMeterColumns } from "../customer-meters";
import { PortalLinkButton } from "./PortalLinkButton";
import { MembersTab } from "./MembersTab";
import { ResendButton } from "./ResendButton";
import { StateTab } from "./StateTab";
import { TaxIdField } from "./TaxIdField";

export function CustomerShow() {
  return (
    <Show
      actions={
        <ShowActions remove>
          <PortalLinkButton />
        </ShowActions>
      }
    >
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="email" />
          <TextField source="name" emptyText="—" />
          <TextField source="external_id" label="External id" emptyText="—" />
          <FunctionField
            label="Billing address"
            render={(c: Customer) =>
              c.billing_address
                ? [
                    c.billing_address.line1,
                    c.billing_address.line2,
                    c.billing_address.postal_code,
                    c.billing_address.city,
                    c.billing_address.state,
                    c.billing_address.country,
                  ]
                    .filter(Boolean)
                    .join(", ")
                : "—"
            }
          />
          <TaxIdField label="Tax ID" />
          {recordDetails()}
        </Tab>
        <Tab label="State" path="state">
          <StateTab />
        </Tab>
        <Tab label="Members" path="members">
          <MembersTab />
        </Tab>
        <Tab label="Wallet" path="wallet">
          <RelatedList
            reference="wallets"
            target="customer_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            empty="No wallet."
          >
            <TextField source="currency" sx={{ textTransform: "uppercase" }} />
            <MoneyField source="balance" label="Balance" />
            <DateTimeField source="modified_at" label="Last change" />
          </RelatedList>
        </Tab>
        <Tab label="Orders" path="orders">
          <RelatedList
            reference="orders"
            target="customer_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            empty="No orders."
          >
            <TextField source="product.name" label="Product" />
            <EnumField source="billing_reason" label="Reason" />
            <MoneyField source="total_amount" label="Total" />
            <EnumField source="status" />
            <DateTimeField source="created_at" label="Created" />
          </RelatedList>
        </Tab>
        <Tab label="Subscriptions" path="subscriptions">
          <RelatedList reference="subscriptions" target="customer_id" label={false} empty="No subscriptions.">
            <TextField source="product.name" label="Product" />
            <MoneyField source="amount" />
            <EnumField source="status" />
            <DateTimeField source="current_period_end" label="Period ends" />
          </RelatedList>
        </Tab>
        <Tab label="Emails" path="emails">
          <RelatedList
            reference="emails"
            target="customer_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            rowClick={false}
            empty="No emails sent."
          >
            <EnumField source="kind" sortable={false} />
            <TextField source="subject" emptyText="—" sortable={false} />
            <EnumField source="status" sortable={false} />
            <DateTimeField source="sent_at" label="Sent at" />
            <ResendButton />
          </RelatedList>
        </Tab>
        <Tab label="Usage" path="usage">
          <ReferenceManyField
            reference="customer-meters"
            target="customer_id"
            label={false}
            sort={{ field: "meter_name", order: "ASC" }}
            pagination={<Pagination />}
          >
            <CustomerMeterColumns customer={false} />
          </ReferenceManyField>
          <RelatedList
            reference="events"
            target="customer_id"
            label="Latest events"
            sort={{ field: "timestamp", order: "DESC" }}
            perPage={10}
            rowsPerPageOptions={[10, 25, 50]}
            rowClick={(id) => `/events/${id}/show`}
            empty="No events."
          >
            <DateTimeField source="timestamp" label="Time" />
            <TextField source="name" sortable={false} />
            <EnumField source="source" sortable={false} />
          </RelatedList>
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}
