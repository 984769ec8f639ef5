// Inputs every form uses: money typed in major units and stored as integer minor units, metadata as
// key / value rows, enum selects with their values as words.
import { ArrayInput, NumberInput, SelectInput, SimpleFormIterator, TextInput, type Validator } from "react-admin";
import { currencyDigits, humanize, toMajor, toMinor } from "./format";

/** A money amount: the person types 12.34, the form holds 1234 (in `currency`'s minor units). */
export function MoneyInput({
  source,
  label,
  currency = "usd",
  validate,
  helperText,
}: {
  source: string;
  label?: string;
  currency?: string;
  validate?: Validator | Validator[];
  helperText?: string;
}) {
  const step = 1 / 10 ** currencyDigits(currency);
  return (
    <NumberInput
      source={source}
      label={label}
      step={step}
      validate={validate}
      helperText={helperText ?? `In ${currency.toUpperCase()}`}
      format={(v: number | null | undefined) => (typeof v === "number" ? toMajor(v, currency) : v)}
      parse={(v: string | number | null) => (v === null || v === "" ? null : toMinor(Number(v), currency))}
    />
  );
}

export function choicesOf(values: readonly string[] | undefined): { id: string; name: string }[] {
  return (values ?? []).map((v) => ({ id: v, name: humanize(v) }));
}

export function EnumInput({
  source,
  values,
  label,
  validate,
  emptyText,
  helperText,
}: {
  source: string;
  values: readonly string[] | undefined;
  label?: string;
  validate?: Validator | Validator[];
  emptyText?: string;
  helperText?: string;
}) {
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choicesOf(values)}
      validate={validate}
      emptyText={emptyText}
      helperText={helperText}
    />
  );
}

/** The form keeps metadata as rows; `metadataToRows` / `rowsToMetadata` convert at load and save. */
export function MetadataInput({ source = "metadata_rows" }: { source?: string }) {
  return (
    <ArrayInput source={source} label="Metadata">
      <SimpleFormIterator inline disableReordering>
        <TextInput source="key" label="Key" helperText={false} />
        <TextInput source="value" label="Value" helperText={false} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

export type MetadataValue = string | number | boolean;

export function metadataToRows(metadata: Record<string, MetadataValue> | null | undefined): { key: string; value: string }[] {
  return Object.entries(metadata ?? {}).map(([key, value]) => ({ key, value: String(value) }));
}

export function rowsToMetadata(rows: { key?: string; value?: string }[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows ?? []) if (row?.key) out[row.key] = row.value ?? "";
  return out;
}
