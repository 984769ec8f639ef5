import { useState } from "react";
import { submissionErrors } from "../../common/submit";
import {
  Button,
  ReferenceArrayInput,
  AutocompleteArrayInput,
  Show,
  SimpleForm,
  Tab,
  TabbedShowLayout,
  TextField,
  useNotify,
  useRecordContext,
  useRefresh,
  SaveButton,
  Toolbar,
  BooleanField,
} from "react-admin";
import { Box, Typography } from "@mui/material";
import ArchiveIcon from "@mui/icons-material/Archive";
import UnarchiveIcon from "@mui/icons-material/Unarchive";
import LinkIcon from "@mui/icons-material/Link";
import { Link } from "react-router-dom";
import type { Product } from "../../api";
import { call } from "../../dataProvider/request";
import { DateTimeField, EnumField, MoneyField, CopyableTextField } from "../../common/fields";
import { RelatedList, ShowActions, recordDetails } from "../../common/layouts";
import { humanize } from "../../common/format";
import { ConfirmAction } from "../../common/ConfirmAction";
import { PricesField } from "./PricesField";
import { BillingField, TrialField, VisibilityField } from "./terms";

function ArchiveButton() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  const archive = !record.is_archived;
  return (
    <ConfirmAction
      label={archive ? "Archive" : "Unarchive"}
      icon={archive ? <ArchiveIcon /> : <UnarchiveIcon />}
      title={archive ? `Archive ${record.name}?` : `Unarchive ${record.name}?`}
      content={archive ? "It can no longer be bought; existing subscriptions go on." : "It can be bought again."}
      run={() => call("PATCH", "/v1/products/{id}", { path: { id: record.id }, body: { is_archived: archive } })}
      success={archive ? "Product archived" : "Product unarchived"}
    />
  );
}

function NewCheckoutLinkButton() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  return (
    <Button component={Link} to="/checkout-links/create" state={{ record: { product_ids: [record.id] } }} label="Checkout link">
      <LinkIcon />
    </Button>
  );
}

/** The benefits a purchase grants, changed with their own call (POST /v1/products/{id}/benefits). */
function BenefitsEditor() {
  const record = useRecordContext<Product>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [saving, setSaving] = useState(false);
  if (!record) return null;
  return (
    <SimpleForm
      record={{ id: record.id, benefit_ids: record.benefits.map((b) => b.id) }}
      toolbar={
        <Toolbar>
          <SaveButton label="Save benefits" disabled={saving} alwaysEnable={false} />
        </Toolbar>
      }
      onSubmit={async (values: Record<string, unknown>) => {
        setSaving(true);
        try {
          await call("POST", "/v1/products/{id}/benefits", { path: { id: record.id }, body: { benefits: values.benefit_ids ?? [] } });
          notify("Benefits saved", { type: "success" });
          refresh();
        } catch (err) {
          return submissionErrors(err, notify);
        } finally {
          setSaving(false);
        }
      }}
    >
      <ReferenceArrayInput source="benefit_ids" reference="benefits">
        <AutocompleteArrayInput
          label="Benefits granted with this product"
          optionText={(b: { description: string; type: string }) => `${b.description} (${humanize(b.type)})`}
          filterToQuery={(q: string) => ({ q })}
          fullWidth
        />
      </ReferenceArrayInput>
    </SimpleForm>
  );
}

function CustomFieldsTab() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  if (!record.attached_custom_fields.length) return <Typography variant="body2">No custom fields are asked at checkout.</Typography>;
  return (
    <Box component="ul" sx={{ pl: 2 }}>
      {record.attached_custom_fields.map((a) => (
        <li key={a.custom_field_id}>
          <Typography variant="body2">
            {a.custom_field.name} <code>{a.custom_field.slug}</code> — {humanize(a.custom_field.type)}
            {a.required ? " (required)" : ""}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

function MediaTab() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  if (!record.medias.length) return <Typography variant="body2">No images.</Typography>;
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      {record.medias.map((m) => (
        <img key={m.id} src={m.public_url} alt={m.name} style={{ width: 160, height: 160, objectFit: "cover", borderRadius: 4 }} />
      ))}
    </Box>
  );
}

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
