// Discounts: a fixed amount or a percentage, once / forever / for some months, with an optional
// code, a validity window, a redemption limit, and the products it applies to.
import {
  AutocompleteArrayInput,
  DateTimeInput,
  FormDataConsumer,
  FunctionField,
  NumberInput,
  ReferenceArrayInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  minValue,
  maxValue,
  required,
  useRecordContext,
} from "react-admin";
import LocalOfferIcon from "@mui/icons-material/LocalOffer";
import type { Discount } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { enumValues, metaFilters } from "../../common/generic";
import { EnumInput, MetadataInput, MoneyInput } from "../../common/inputs";
import { formatMoney } from "../../common/format";
import { RecordCreate, RecordEdit, ResourceList, ShowActions, recordDetails } from "../../common/layouts";

export function discountText(d: Discount): string {
  const off = "amount" in d ? formatMoney(d.amount, d.currency) : `${d.basis_points / 100}%`;
  const when =
    d.duration === "once"
      ? "once"
      : d.duration === "forever"
        ? "forever"
        : `for ${"duration_in_months" in d ? d.duration_in_months : "?"} months`;
  return `${off} off, ${when}`;
}

function Amount() {
  const d = useRecordContext<Discount>();
  return d ? <>{discountText(d)}</> : null;
}

function Redemptions() {
  const d = useRecordContext<Discount>();
  return d ? (
    <>
      {d.redemptions_count}
      {d.max_redemptions != null ? ` / ${d.max_redemptions}` : ""}
    </>
  ) : null;
}

function DiscountList() {
  return (
    <ResourceList
      filters={metaFilters("discounts")}
      sort={{ field: "created_at", order: "DESC" }}
      exportFields={[
        "id",
        "name",
        "code",
        "type",
        "amount",
        "currency",
        "basis_points",
        "duration",
        "duration_in_months",
        "redemptions_count",
        "max_redemptions",
        "starts_at",
        "ends_at",
      ]}
    >
      <TextField source="name" />
      <TextField source="code" emptyText="—" />
      <FunctionField label="Discount" render={() => <Amount />} />
      <FunctionField label="Redemptions" sortBy="redemptions_count" render={() => <Redemptions />} />
      <DateTimeField source="ends_at" label="Ends" />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

function DiscountShow() {
  return (
    <Show actions={<ShowActions remove />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="code" emptyText="—" />
        <FunctionField label="Discount" render={() => <Amount />} />
        <EnumField source="duration" />
        <FunctionField label="Redemptions" render={() => <Redemptions />} />
        <DateTimeField source="starts_at" label="Starts" />
        <DateTimeField source="ends_at" label="Ends" />
        <FunctionField label="Products" render={(d: Discount) => d.products.map((p) => p.name).join(", ") || "All products"} />
        {recordDetails({ created: false })}
      </SimpleShowLayout>
    </Show>
  );
}

function Form() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="code" helperText="Buyers type it at checkout; leave empty for links only" />
      <EnumInput source="type" values={enumValues("discounts", "type")} validate={required()} />
      <FormDataConsumer>
        {({ formData }) =>
          formData.type === "fixed" ? (
            <>
              <TextInput source="currency" defaultValue="usd" helperText="ISO code" />
              <MoneyInput source="amount" label="Amount off" currency={formData.currency || "usd"} validate={[required(), minValue(1)]} />
            </>
          ) : formData.type === "percentage" ? (
            <NumberInput
              source="percent"
              label="Percent off"
              step={0.01}
              validate={[required(), minValue(0.01), maxValue(100)]}
              helperText="e.g. 12.5"
            />
          ) : null
        }
      </FormDataConsumer>
      <EnumInput source="duration" values={enumValues("discounts", "duration")} validate={required()} />
      <FormDataConsumer>
        {({ formData }) =>
          formData.duration === "repeating" ? (
            <NumberInput source="duration_in_months" label="Months" validate={[required(), minValue(1)]} />
          ) : null
        }
      </FormDataConsumer>
      <DateTimeInput source="starts_at" label="Starts" />
      <DateTimeInput source="ends_at" label="Ends" />
      <NumberInput source="max_redemptions" label="Redemption limit" min={1} helperText="Empty: unlimited" />
      <ReferenceArrayInput source="product_ids" reference="products">
        <AutocompleteArrayInput
          label="Only for these products"
          optionText="name"
          filterToQuery={(q: string) => ({ q })}
          fullWidth
          helperText="Empty: every product"
        />
      </ReferenceArrayInput>
      <MetadataInput />
    </SimpleForm>
  );
}

type Values = Record<string, unknown> & { percent?: number; product_ids?: string[] };

function body(data: Values): Record<string, unknown> {
  const { percent, product_ids, ...rest } = data;
  const out: Record<string, unknown> = { ...rest, products: product_ids ?? [] };
  for (const k of ["code", "starts_at", "ends_at", "max_redemptions"]) if (out[k] === "" || out[k] === undefined) out[k] = null;
  if (out.type === "percentage") {
    out.basis_points = Math.round(Number(percent) * 100);
    delete out.amount;
    delete out.currency;
  } else delete out.basis_points;
  if (out.duration !== "repeating") delete out.duration_in_months;
  return out;
}

function DiscountCreate() {
  return (
    <RecordCreate<Values> transform={body}>
      <Form />
    </RecordCreate>
  );
}

function DiscountEdit() {
  return (
    <RecordEdit<Discount, Values>
      transform={body}
      load={(d) => ({ percent: "basis_points" in d ? d.basis_points / 100 : undefined, product_ids: d.products.map((p) => p.id) })}
    >
      <Form />
    </RecordEdit>
  );
}

export default {
  list: DiscountList,
  show: DiscountShow,
  create: DiscountCreate,
  edit: DiscountEdit,
  icon: LocalOfferIcon,
  recordRepresentation: "name",
};
