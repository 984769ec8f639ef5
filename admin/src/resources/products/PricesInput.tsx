import {
  ArrayInput,
  FormDataConsumer,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  AutocompleteInput,
  required,
  minValue,
} from "react-admin";
import { Box, Typography } from "@mui/material";
import type { ProductPrice } from "../../api";
import { MoneyInput } from "../../common/inputs";
import { priceText, AMOUNT_TYPES, AMOUNT_TYPE_NAMES } from "./priceText";

/** The editor: one row per price; a kept price shows read-only, a new one asks for its amount type's fields. */
export function PricesInput() {
  return (
    <ArrayInput source="prices" label="Prices" validate={required("Add at least one price")}>
      <SimpleFormIterator disableReordering fullWidth>
        <FormDataConsumer>
          {({ scopedFormData }) => {
            const existing = scopedFormData as (ProductPrice & { id?: string }) | undefined;
            if (existing?.id) {
              return (
                <Typography variant="body2" sx={{ py: 1 }}>
                  {priceText(existing)}{" "}
                  <Typography component="span" variant="caption" color="text.secondary">
                    (kept as is; remove it to archive it)
                  </Typography>
                </Typography>
              );
            }
            const amountType = (scopedFormData as { amount_type?: string } | undefined)?.amount_type;
            const currency = ((scopedFormData as { price_currency?: string } | undefined)?.price_currency || "usd").toLowerCase();
            return (
              <Box sx={{ display: "flex", flexWrap: "wrap", columnGap: 2 }}>
                <SelectInput
                  source="amount_type"
                  label="Amount type"
                  choices={AMOUNT_TYPES.map((t) => ({ id: t, name: AMOUNT_TYPE_NAMES[t] }))}
                  validate={required()}
                  defaultValue="fixed"
                />
                {amountType !== "free" ? (
                  <TextInput
                    source="price_currency"
                    label="Currency"
                    defaultValue="usd"
                    helperText="ISO code, e.g. usd"
                    sx={{ width: 120 }}
                  />
                ) : null}
                {amountType === "fixed" ? (
                  <MoneyInput source="price_amount" label="Price" currency={currency} validate={[required(), minValue(0)]} />
                ) : null}
                {amountType === "custom" ? (
                  <>
                    <MoneyInput source="minimum_amount" label="Minimum" currency={currency} />
                    <MoneyInput source="maximum_amount" label="Maximum" currency={currency} />
                    <MoneyInput source="preset_amount" label="Suggested" currency={currency} />
                  </>
                ) : null}
                {amountType === "metered_unit" ? (
                  <>
                    <ReferenceInput source="meter_id" reference="meters" filter={{ is_archived: false }}>
                      <AutocompleteInput
                        label="Meter"
                        optionText="name"
                        validate={required()}
                        filterToQuery={(q: string) => ({ q })}
                        sx={{ minWidth: 220 }}
                      />
                    </ReferenceInput>
                    <TextInput
                      source="unit_amount"
                      label="Per unit (minor units, decimals allowed)"
                      validate={required()}
                      helperText="e.g. 0.5 = half a cent"
                    />
                    <MoneyInput source="cap_amount" label="Cap per period" currency={currency} />
                  </>
                ) : null}
              </Box>
            );
          }}
        </FormDataConsumer>
      </SimpleFormIterator>
    </ArrayInput>
  );
}
