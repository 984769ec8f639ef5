// Checkout links: a shareable URL that opens a fresh checkout for one or more products.
import { AutocompleteArrayInput, AutocompleteInput, BooleanField, BooleanInput, Create, Datagrid, Edit, EditButton, DeleteButton, List, ReferenceArrayInput, ReferenceInput, Show, SimpleForm, SimpleShowLayout, TextField, TextInput, TopToolbar, required, useRecordContext, FunctionField } from "react-admin";
import LinkIcon from "@mui/icons-material/Link";
import type { CheckoutLink } from "../../api";
import { CopyableTextField, DateTimeField, IdField, MetadataField } from "../../common/fields";
import { ListActions, metaFilters } from "../../common/generic";
import { MetadataInput, metadataToRows, rowsToMetadata } from "../../common/inputs";
import { csvExporter } from "../../common/csv";

function ProductsField() {
  const record = useRecordContext<CheckoutLink>();
  return <>{record?.products.map((p) => p.name).join(", ") || "—"}</>;
}

function CheckoutLinkList() {
  return (
    <List filters={metaFilters("checkout-links", [])} sort={{ field: "created_at", order: "DESC" }} actions={<ListActions />} exporter={csvExporter("checkout-links", ["id", "label", "url", "success_url", "allow_discount_codes", "created_at"])}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="label" emptyText="—" />
        <FunctionField label="Products" render={() => <ProductsField />} />
        <CopyableTextField source="url" label="Link" />
        <BooleanField source="allow_discount_codes" label="Discount codes" />
        <DateTimeField source="created_at" label="Created" />
      </Datagrid>
    </List>
  );
}

function CheckoutLinkShow() {
  return (
    <Show actions={<TopToolbar><EditButton /><DeleteButton mutationMode="pessimistic" /></TopToolbar>}>
      <SimpleShowLayout>
        <TextField source="label" emptyText="—" />
        <CopyableTextField source="url" label="Link" />
        <FunctionField label="Products" render={() => <ProductsField />} />
        <TextField source="discount.name" label="Discount" emptyText="—" />
        <BooleanField source="allow_discount_codes" label="Discount codes allowed" />
        <BooleanField source="require_billing_address" label="Billing address required" />
        <TextField source="success_url" label="Success URL" emptyText="—" />
        <IdField source="id" label="ID" />
        <DateTimeField source="created_at" label="Created" />
        <MetadataField source="metadata" label="Metadata" />
      </SimpleShowLayout>
    </Show>
  );
}

function Form() {
  return (
    <SimpleForm>
      <TextInput source="label" fullWidth helperText="Only you see it" />
      <ReferenceArrayInput source="product_ids" reference="products" filter={{ is_archived: false }}>
        <AutocompleteArrayInput label="Products" optionText="name" validate={required()} filterToQuery={(q: string) => ({ q })} fullWidth />
      </ReferenceArrayInput>
      <ReferenceInput source="discount_id" reference="discounts">
        <AutocompleteInput label="Discount applied" optionText="name" filterToQuery={(q: string) => ({ q })} />
      </ReferenceInput>
      <BooleanInput source="allow_discount_codes" label="Buyers may enter discount codes" defaultValue />
      <BooleanInput source="require_billing_address" label="Require a billing address" defaultValue={false} />
      <TextInput source="success_url" label="Success URL" fullWidth helperText="Where the buyer lands after paying; {CHECKOUT_ID} is replaced" />
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { product_ids?: string[]; metadata_rows?: { key?: string; value?: string }[] };

function body(data: Values, create: boolean): Record<string, unknown> {
  const { product_ids, metadata_rows, ...rest } = data;
  return { ...rest, discount_id: rest.discount_id || null, success_url: rest.success_url || null, products: product_ids ?? [], metadata: rowsToMetadata(metadata_rows), ...(create ? { payment_processor: "stripe" } : {}) };
}

function CheckoutLinkCreate() {
  return (
    <Create transform={(d: Values) => body(d, true)} redirect="show">
      <Form />
    </Create>
  );
}

function CheckoutLinkEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={(d: Values) => body(d, false)} redirect="show" queryOptions={{ select: (l: CheckoutLink) => ({ ...l, product_ids: l.products.map((p) => p.id), metadata_rows: metadataToRows(l.metadata) }) }}>
      <Form />
    </Edit>
  );
}

export default { list: CheckoutLinkList, show: CheckoutLinkShow, create: CheckoutLinkCreate, edit: CheckoutLinkEdit, icon: LinkIcon, recordRepresentation: "label" };
