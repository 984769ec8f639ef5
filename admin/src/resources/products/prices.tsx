// Prices: how one reads (a summary line per price) and how the editor writes them. A product's
// prices are fixed (a fixed price of 0 is free), pay what you want or metered; the editor offers
// "Free" apart, sent as a free price the server stores as fixed 0. An existing price is never
// changed in place: the update keeps it by id, or drops it (the server archives it), and new
// prices are added beside.
import {
  ArrayInput,
  FormDataConsumer,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  AutocompleteInput,
  required,
  useRecordContext,
  minValue,
} from "react-admin";
import { Box, Chip, Stack, Typography } from "@mui/material";
import type { ProductPrice } from "../../api";
import { currencyDigits, formatMoney, humanize, perPeriod } from "../../common/format";
import { MoneyInput } from "../../common/inputs";

export const AMOUNT_TYPES = ["fixed", "custom", "free", "metered_unit"] as const;
const AMOUNT_TYPE_NAMES: Record<string, string> = {
  fixed: "Fixed price",
  custom: "Pay what you want",
  free: "Free",
  metered_unit: "Metered (per unit)",
};

/** A metered unit price: a decimal number of minor units ("0.5" usd cents → $0.005). */
export function formatUnitAmount(unit: string | number, currency: string): string {
  const digits = currencyDigits(currency);
  const major = Number(unit) / 10 ** digits;
  try {
    return new Intl.NumberFormat(undefined, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, 12),
    }).format(major);
  } catch {
    return `${major} ${currency.toUpperCase()}`;
  }
}

export function priceText(p: ProductPrice, interval?: string | null, count?: number | null): string {
  const per = interval ? ` ${perPeriod(interval, count)}` : "";
  switch (p.amount_type) {
    case "fixed":
      return p.price_amount === 0 ? "Free" : `${formatMoney(p.price_amount, p.price_currency)}${per}`;
    case "custom": {
      const parts = [
        p.minimum_amount != null ? `min ${formatMoney(p.minimum_amount, p.price_currency)}` : null,
        p.preset_amount != null ? `suggested ${formatMoney(p.preset_amount, p.price_currency)}` : null,
      ].filter(Boolean);
      return `Pay what you want${parts.length ? ` (${parts.join(", ")})` : ""}${per}`;
    }
    case "metered_unit":
      return `${formatUnitAmount(p.unit_amount, p.price_currency)} per unit of ${p.meter?.name ?? "meter"}${p.cap_amount != null ? `, capped at ${formatMoney(p.cap_amount, p.price_currency)}` : ""}${per}`;
    default:
      return humanize((p as { amount_type?: string }).amount_type ?? "price");
  }
}

/** Every active price of the product in the record, one line each. */
export function PricesField(_props: { label?: string }) {
  const record = useRecordContext<{
    prices?: ProductPrice[];
    recurring_interval?: string | null;
    recurring_interval_count?: number | null;
  }>();
  const prices = (record?.prices ?? []).filter((p) => !p.is_archived);
  if (!prices.length) return <Typography variant="body2">—</Typography>;
  return (
    <Stack spacing={0.5}>
      {prices.map((p) => (
        <Box key={p.id} sx={{ display: "flex", gap: 1, alignItems: "center" }}>
          <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
            {priceText(p, record?.recurring_interval, record?.recurring_interval_count)}
          </Typography>
          {p.amount_type === "metered_unit" ? <Chip size="small" label="Usage" /> : null}
        </Box>
      ))}
    </Stack>
  );
}

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

type PriceRow = Record<string, unknown> & { id?: string; amount_type?: string };

/** The form's price rows as the create / update body wants them. */
export function pricesBody(rows: PriceRow[] | undefined): Record<string, unknown>[] {
  return (rows ?? []).map((row) => {
    if (row.id) return { id: row.id };
    const currency = typeof row.price_currency === "string" && row.price_currency ? row.price_currency.toLowerCase() : "usd";
    switch (row.amount_type) {
      case "custom":
        return {
          amount_type: "custom",
          price_currency: currency,
          minimum_amount: row.minimum_amount ?? null,
          maximum_amount: row.maximum_amount ?? null,
          preset_amount: row.preset_amount ?? null,
        };
      case "free":
        return { amount_type: "free" };
      case "metered_unit":
        return {
          amount_type: "metered_unit",
          price_currency: currency,
          meter_id: row.meter_id,
          unit_amount: row.unit_amount,
          cap_amount: row.cap_amount ?? null,
        };
      default:
        return { amount_type: "fixed", price_currency: currency, price_amount: row.price_amount };
    }
  });
}
