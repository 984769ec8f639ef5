// Screens' building blocks from the generated resource metadata: a field rendered by its contract
// type, list filters from the list operation's query parameters, list actions that offer only the
// operations the contract has. Hand-written screens pick the fields that matter; this renders them.
import type { ReactElement } from "react";
import {
  AutocompleteArrayInput,
  BooleanField,
  CreateButton,
  ExportButton,
  FilterButton,
  NullableBooleanInput,
  NumberField,
  ReferenceArrayInput,
  ReferenceField,
  SearchInput,
  SelectArrayInput,
  TextField,
  TextInput,
  TopToolbar,
  DateInput,
  useResourceContext,
} from "react-admin";
import { adminResourcesByName, type AdminField, type AdminFilter } from "../../../generated/admin-resources";
import { DateTimeField, EnumField, IdField, MetadataField, MoneyField } from "./fields";
import { choicesOf } from "./inputs";
import { EXPORT_MAX } from "./csv";
import { humanize } from "./format";

const MONEY_NAMES = /(^|_)amount$/;

/** The text a reference shows: a customer by email, a product by name… */
export const REFERENCE_TEXT: Record<string, string> = {
  customers: "email",
  products: "name",
  discounts: "name",
  meters: "name",
  benefits: "description",
  "custom-fields": "name",
  "checkout-links": "label",
  "webhooks-endpoints": "url",
  orders: "id",
  subscriptions: "id",
  checkouts: "id",
};

export function fieldOf(resource: string, name: string): AdminField | undefined {
  return adminResourcesByName[resource]?.fields.find((f) => f.name === name);
}

export function enumValues(resource: string, name: string): readonly string[] | undefined {
  return fieldOf(resource, name)?.values;
}

/** A read-model field as its contract type says. */
export function MetaField({ resource, source, label }: { resource: string; source: string; label?: string }): ReactElement {
  const f = fieldOf(resource, source);
  const sortable = adminResourcesByName[resource]?.sortFields.includes(source) ?? false;
  const common = { source, label: label ?? humanize(source), sortable };
  if (source === "id") return <IdField source="id" />;
  if (!f) return <TextField {...common} />;
  if (f.reference && REFERENCE_TEXT[f.reference] && adminResourcesByName[f.reference]?.getOperation) {
    return (
      <ReferenceField source={source} reference={f.reference} label={common.label} sortable={sortable} link="show" emptyText="—">
        <TextField source={REFERENCE_TEXT[f.reference]} />
      </ReferenceField>
    );
  }
  if (source === "metadata") return <MetadataField source={source} />;
  if (f.type === "datetime") return <DateTimeField {...common} />;
  if (f.type === "enum" || f.type === "enum[]") return <EnumField {...common} />;
  if (f.type === "boolean") return <BooleanField {...common} />;
  if (f.type === "integer" && MONEY_NAMES.test(source)) return <MoneyField {...common} />;
  if (f.type === "integer" || f.type === "number") return <NumberField {...common} />;
  if (f.name.endsWith("_id")) return <IdField source={source} />;
  return <TextField {...common} emptyText="—" />;
}

MetaField.displayName = "MetaField";

function filterInput(resource: string, f: AdminFilter, alwaysOn: boolean): ReactElement | null {
  const label = humanize(f.name.replace(/_id$/, ""));
  if (f.name === "organization_id" || f.type === "metadata") return null;
  if (f.name === "query") return <SearchInput key="q" source="q" alwaysOn />;
  if (f.reference && REFERENCE_TEXT[f.reference]) {
    const target = adminResourcesByName[f.reference];
    return (
      <ReferenceArrayInput key={f.name} source={f.name} reference={f.reference} label={label} alwaysOn={alwaysOn}>
        <AutocompleteArrayInput
          label={label}
          optionText={REFERENCE_TEXT[f.reference]}
          filterToQuery={(q: string) => (target?.queryFilter ? { q } : {})}
          sx={{ minWidth: 220 }}
        />
      </ReferenceArrayInput>
    );
  }
  if (f.type === "enum" || f.type === "enum[]")
    return (
      <SelectArrayInput
        key={f.name}
        source={f.name}
        label={label}
        choices={choicesOf(f.values)}
        alwaysOn={alwaysOn}
        sx={{ minWidth: 180 }}
      />
    );
  if (f.type === "boolean") return <NullableBooleanInput key={f.name} source={f.name} label={label} alwaysOn={alwaysOn} />;
  if (f.type === "datetime" || f.type === "date") return <DateInput key={f.name} source={f.name} label={label} alwaysOn={alwaysOn} />;
  void resource;
  return <TextInput key={f.name} source={f.name} label={label} alwaysOn={alwaysOn} />;
}

/**
 * The list's filters, from its operation's query parameters; `alwaysOn` names those shown without
 * asking. A reference filter (customer, product…) loads its choices when shown: keep those behind
 * "Add filter", so opening a list makes one call.
 */
export function metaFilters(resource: string, alwaysOn: string[] = ["query"], only?: string[]): ReactElement[] {
  const r = adminResourcesByName[resource];
  if (!r) return [];
  return r.filters
    .filter((f) => !r.parent || f.name !== r.parent.filter)
    .filter((f) => !only || only.includes(f.name))
    .map((f) => filterInput(resource, f, alwaysOn.includes(f.name)))
    .filter((e): e is ReactElement => e !== null);
}

/** Filter button, create (when the contract has it), and an export of every matching record. */
export function ListActions({ create = true, filters = true, extra }: { create?: boolean; filters?: boolean; extra?: ReactElement }) {
  const resource = useResourceContext() ?? "";
  const r = adminResourcesByName[resource];
  return (
    <TopToolbar>
      {filters ? <FilterButton /> : null}
      {extra}
      {create && r?.createOperation ? <CreateButton /> : null}
      {/* aria-label: react-admin's disabled button on a phone (an empty list) has no name */}
      <ExportButton maxResults={EXPORT_MAX} aria-label="Export" />
    </TopToolbar>
  );
}
