import { Show, Tab, TabbedShowLayout, TextField, BooleanField } from "react-admin";
import { DateTimeField, EnumField, MoneyField, CopyableTextField } from "../../common/fields";
import { RelatedList, ShowActions, recordDetails } from "../../common/layouts";
import { PricesField } from "./PricesField";
import { BillingField, TrialField, VisibilityField } from "./terms";
import { ArchiveButton } from "./ArchiveButton";
import { BenefitsEditor } from "./BenefitsEditor";
import { CustomFieldsTab } from "./CustomFieldsTab";
import { MediaTab } from "./MediaTab";
import { NewCheckoutLinkButton } from "./NewCheckoutLinkButton";

export function ProductShow() {
  return (
    <Show
      actions={
        <ShowActions>
          <NewCheckoutLinkButton />
          <ArchiveButton />
        </ShowActions>
      }
    >
      <TabbedShowLayout>
        <Tab label="Overview">
          <TextField source="name" />
          <TextField source="description" emptyText="—" />
          <PricesField label="Prices" />
          <BillingField label="Billing" />
          <TrialField label="Free trial" />
          <VisibilityField label="Visibility" />
          <BooleanField source="is_archived" label="Archived" />
          {recordDetails()}
        </Tab>
        <Tab label="Benefits" path="benefits">
          <BenefitsEditor />
        </Tab>
        <Tab label="Checkout fields" path="fields">
          <CustomFieldsTab />
        </Tab>
        <Tab label="Media" path="media">
          <MediaTab />
        </Tab>
        <Tab label="Checkout links" path="links">
          <RelatedList reference="checkout-links" target="product_id" label={false} empty="No checkout links yet.">
            <TextField source="label" emptyText="—" />
            <CopyableTextField source="url" />
            <DateTimeField source="created_at" label="Created" />
          </RelatedList>
        </Tab>
        <Tab label="Orders" path="orders">
          <RelatedList
            reference="orders"
            target="product_id"
            label={false}
            sort={{ field: "created_at", order: "DESC" }}
            empty="No orders yet."
          >
            <TextField source="customer.email" label="Customer" />
            <MoneyField source="total_amount" label="Total" />
            <EnumField source="status" />
            <DateTimeField source="created_at" label="Created" />
          </RelatedList>
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}
