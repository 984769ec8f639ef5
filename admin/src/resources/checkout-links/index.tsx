// Checkout links: a shareable URL that opens a fresh checkout for one or more products.
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  ReferenceArrayInput,
  ReferenceInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  required,
  useRecordContext,
  FunctionField,
} from "react-admin";
import LinkIcon from "@mui/icons-material/Link";
import type { CheckoutLink } from "../../api";
import { CopyableTextField, DateTimeField } from "../../common/fields";
import { formatDateTime } from "../../common/format";
import { metaFilters } from "../../common/generic";
import { MetadataInput } from "../../common/inputs";
import { RecordCreate, RecordEdit, ResourceList, ShowActions, recordDetails, facts } from "../../common/layouts";
import { LinkField } from "../../common/references";

function ProductsField() {
  const record = useRecordContext<CheckoutLink>();
  return <>{record?.products.map((p) => p.name).join(", ") || "—"}</>;
}

function CheckoutLinkList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (l: CheckoutLink) => l.label ?? l.products.map((p) => p.name).join(", "),
        secondaryText: (l: CheckoutLink) => facts(l.products.map((p) => p.name).join(", "), formatDateTime(l.created_at)),
      }}
      filters={metaFilters("checkout-links", [])}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={["id", "label", "url", "success_url", "allow_discount_codes", "created_at"]}
    >
      <TextField source="label" emptyText="—" />
      <FunctionField label="Products" render={() => <ProductsField />} />
      <CopyableTextField source="url" label="Link" />
      <BooleanField source="allow_discount_codes" label="Discount codes" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

function CheckoutLinkShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <SimpleShowLayout>
        <TextField source="label" emptyText="—" />
        <CopyableTextField source="url" label="Link" />
        <FunctionField label="Products" render={() => <ProductsField />} />
        <LinkField label="Discount" source="discount_id" reference="discounts" text="discount.name" />
        <BooleanField source="allow_discount_codes" label="Discount codes allowed" />
        <BooleanField source="require_billing_address" label="Billing address required" />
        <TextField source="success_url" label="Success URL" emptyText="—" />
        {recordDetails()}
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
      <TextInput
        source="success_url"
        label="Success URL"
        fullWidth
        helperText="Where the buyer lands after paying; {CHECKOUT_ID} is replaced"
      />
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { product_ids?: string[] };

function body(data: Values, create: boolean): Record<string, unknown> {
  const { product_ids, ...rest } = data;
  return {
    ...rest,
    discount_id: rest.discount_id || null,
    success_url: rest.success_url || null,
    products: product_ids ?? [],
    ...(create ? { payment_processor: "stripe" } : {}),
  };
}

function CheckoutLinkCreate() {
  return (
    <RecordCreate<Values> transform={(d) => body(d, true)}>
      <Form />
    </RecordCreate>
  );
}

function CheckoutLinkEdit() {
  return (
    <RecordEdit<CheckoutLink, Values> transform={(d) => body(d, false)} load={(l) => ({ product_ids: l.products.map((p) => p.id) })}>
      <Form />
    </RecordEdit>
  );
}

export default {
  list: CheckoutLinkList,
  show: CheckoutLinkShow,
  create: CheckoutLinkCreate,
  edit: CheckoutLinkEdit,
  icon: LinkIcon,
  recordRepresentation: "label",
};
