// The meter's form (create and edit): name, the events' filter, the aggregation and the unit.
import {
  ArrayInput,
  NumberInput,
  FormDataConsumer,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  minValue,
  required,
} from "react-admin";
import { Box, Typography } from "@mui/material";
import { MetadataInput } from "../../common/inputs";
import { humanize } from "../../common/format";
import { OPERATORS, OPERATOR_TEXT, FUNCS, UNITS } from "./meterText";

export function Form() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} fullWidth />
      <Typography variant="subtitle2">Events counted</Typography>
      <SelectInput
        source="filter.conjunction"
        label="Match"
        choices={[
          { id: "and", name: "All of the conditions" },
          { id: "or", name: "Any of the conditions" },
        ]}
        defaultValue="and"
        validate={required()}
      />
      <ArrayInput source="filter.clauses" label="Conditions">
        <SimpleFormIterator inline>
          <TextInput source="property" label="Property" helperText="name, or metadata.<key>" validate={required()} />
          <SelectInput source="operator" choices={OPERATORS.map((o) => ({ id: o, name: OPERATOR_TEXT[o] }))} validate={required()} />
          <TextInput source="value" label="Value" helperText="Numbers and true/false are read as such" validate={required()} />
        </SimpleFormIterator>
      </ArrayInput>
      <Typography variant="subtitle2">How they add up</Typography>
      <SelectInput
        source="aggregation.func"
        label="Aggregation"
        choices={FUNCS.map((f) => ({ id: f, name: humanize(f) }))}
        defaultValue="count"
        validate={required()}
      />
      <FormDataConsumer>
        {({ formData }) =>
          formData.aggregation?.func && formData.aggregation.func !== "count" ? (
            <TextInput source="aggregation.property" label="Property" helperText="e.g. metadata.tokens" validate={required()} />
          ) : null
        }
      </FormDataConsumer>
      <Typography variant="subtitle2">Unit</Typography>
      <SelectInput
        source="unit"
        label="Unit"
        choices={UNITS}
        defaultValue="scalar"
        validate={required()}
        helperText="How quantities and prices are shown"
      />
      <FormDataConsumer>
        {({ formData }) =>
          formData.unit === "custom" ? (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>
              <TextInput source="custom_label" label="Unit label" helperText="e.g. gigabyte, or 1K requests" validate={required()} />
              <NumberInput
                source="custom_multiplier"
                label="Shown per"
                helperText="e.g. 1000: per 1000 units"
                min={1}
                step={1}
                validate={minValue(1)}
              />
            </Box>
          ) : null
        }
      </FormDataConsumer>
      <MetadataInput />
    </SimpleForm>
  );
}

export type Values = Record<string, unknown> & {
  filter?: { conjunction: string; clauses?: { property: string; operator: string; value: unknown }[] };
  aggregation?: { func: string; property?: string };
};

function typed(v: unknown): unknown {
  if (typeof v !== "string") return v;
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v === "true" || v === "false") return v === "true";
  return v;
}

export function body(data: Values): Record<string, unknown> {
  const { filter, aggregation, ...rest } = data;
  // Only a custom unit has a label and a multiplier: leaving it clears them.
  const custom = rest.unit === "custom";
  return {
    ...rest,
    custom_label: custom ? rest.custom_label : null,
    custom_multiplier: custom ? (rest.custom_multiplier ?? null) : null,
    filter: {
      conjunction: filter?.conjunction ?? "and",
      clauses: (filter?.clauses ?? []).map((c) => ("conjunction" in c ? c : { ...c, value: typed(c.value) })),
    },
    aggregation: aggregation?.func === "count" ? { func: "count" } : aggregation,
  };
}
