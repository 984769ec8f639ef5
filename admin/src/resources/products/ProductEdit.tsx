import { Create, Edit, useRecordContext } from "react-admin";
import type { Product } from "../../api";
import { metadataToRows, rowsToMetadata } from "../../common/inputs";
import { ProductForm } from "./ProductForm";
import { pricesBody } from "./pricesBody";
import { termsBody } from "./terms";

type FormValues = Record<string, unknown> & {
  prices?: Record<string, unknown>[];
  media_files?: { id: string }[];
  metadata_rows?: { key?: string; value?: string }[];
  attached_custom_fields?: { custom_field_id: string; required?: boolean }[];
};

/** The form's values as the product create / update body. */
export function productBody(data: FormValues): Record<string, unknown> {
  const { media_files, metadata_rows, prices, attached_custom_fields, ...rest } = data;
  return {
    ...rest,
    recurring_interval: rest.recurring_interval || null,
    ...termsBody(rest),
    prices: pricesBody(prices),
    medias: (media_files ?? []).map((m) => m.id),
    attached_custom_fields: (attached_custom_fields ?? []).map((a) => ({ custom_field_id: a.custom_field_id, required: !!a.required })),
    metadata: rowsToMetadata(metadata_rows),
  };
}

/** The product as the form holds it. */
function toForm(p: Product) {
  return {
    ...p,
    prices: p.prices.filter((x) => !x.is_archived),
    media_files: p.medias.map((m) => ({ id: m.id, name: m.name, public_url: m.public_url })),
    metadata_rows: metadataToRows(p.metadata),
    benefit_ids: p.benefits.map((b) => b.id),
    attached_custom_fields: p.attached_custom_fields.map((a) => ({ custom_field_id: a.custom_field_id, required: a.required })),
  };
}

function EditForm() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  return <ProductForm record={toForm(record)} />;
}

export function ProductEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={(data: FormValues) => productBody(data)} redirect="show">
      <EditForm />
    </Edit>
  );
}

export function ProductCreate() {
  return (
    <Create transform={(data: FormValues) => productBody(data)} redirect="show">
      <ProductForm
        record={{
          prices: [{ amount_type: "fixed", price_currency: "usd" }],
          attached_custom_fields: [],
          media_files: [],
          benefit_ids: [],
          visibility: "public",
          tax_category: "digital_service",
          recurring_interval_count: 1,
        }}
      />
    </Create>
  );
}
