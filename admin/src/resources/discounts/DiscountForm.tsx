// The discount's form (create and edit) and the body it sends.
import {
  AutocompleteArrayInput,
  DateTimeInput,
  FormDataConsumer,
  NumberInput,
  ReferenceArrayInput,
  SimpleForm,
  TextInput,
  minValue,
  maxValue,
  required,
} from "react-admin";
import { enumValues } from "../../common/generic";
import { EnumInput, MetadataInput, MoneyInput } from "../../common/inputs";

export function Form() {
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

export type Values = Record<string, unknown> & { percent?: number; product_ids?: string[] };

export function body(data: Values): Record<string, unknown> {
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
