// The buyer's fields of a checkout: contact, the product's custom fields, the billing address
// lines the checkout asks for (billing_address_fields), business purchase with tax id. Each
// sends its change through the session; the server's 422 shows under the field it names.
import { useEffect, useState } from "react";
import type { AddressInput, AttachedCustomField } from "../../../../generated/client/types.gen.js";
import { aria, CountryOptions, Field } from "../../ui/components.js";
import { CommitInput, CommitTextarea, TextField, useOptimistic } from "../../ui/inputs.js";
import type { CheckoutSession } from "./session.js";

type Props = { session: CheckoutSession };

export function ContactFields({ session }: Props) {
  const { checkout, errors, update } = session;
  return (
    <>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        error={errors.customer_email}
        value={checkout.customer_email}
        onCommit={(v) => void update({ customer_email: v }, ["customer_email"])}
      />
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        error={errors.customer_name}
        value={checkout.customer_name}
        onCommit={(v) => void update({ customer_name: v }, ["customer_name"])}
      />
    </>
  );
}

/** A date field's bound (Unix seconds) as the yyyy-mm-dd a date input takes. */
const isoDay = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(seconds * 1000).toISOString().slice(0, 10));

function CustomFieldInput({ attached, session }: { attached: AttachedCustomField; session: CheckoutSession }) {
  const field = attached.custom_field;
  const key = `custom_field_data.${field.slug}`;
  const [value, setValue] = useOptimistic(session.checkout.custom_field_data?.[field.slug] ?? null);
  const send = (v: string | number | boolean | null) => {
    setValue(v);
    void session.update({ custom_field_data: { [field.slug]: v } }, [key]);
  };
  const p = field.properties;
  const label = p.form_label || field.name;
  const common = { required: attached.required, error: session.errors[key], help: p.form_help_text };

  if (field.type === "checkbox") {
    const id = `cf-${field.slug}`;
    const error = session.errors[key];
    return (
      <div className={`field field--checkbox${error ? " field--invalid" : ""}`}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => send(e.target.checked)}
        />
        <label htmlFor={id}>
          {label}
          {attached.required ? <span aria-hidden="true"> *</span> : null}
        </label>
        {p.form_help_text ? <p className="field__help">{p.form_help_text}</p> : null}
        {error ? (
          <p className="field__error" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Field label={label} {...common}>
      {(ids) => {
        const attrs = { ...aria(ids), required: attached.required, name: field.slug };
        switch (field.type) {
          case "select":
            return (
              <select
                {...attrs}
                value={typeof value === "string" ? value : ""}
                onChange={(e) => send(e.target.value === "" ? null : e.target.value)}
              >
                <option value="">{field.properties.form_placeholder || "Choose…"}</option>
                {field.properties.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            );
          case "number":
            return (
              <CommitInput
                {...attrs}
                type="number"
                inputMode="numeric"
                step={1}
                min={field.properties.ge}
                max={field.properties.le}
                placeholder={field.properties.form_placeholder}
                value={value === null ? "" : String(value)}
                onCommit={(v) => send(v.trim() === "" ? null : Number.isNaN(Number(v)) ? v : Number(v))}
              />
            );
          case "date":
            return (
              <CommitInput
                {...attrs}
                type="date"
                min={isoDay(field.properties.ge)}
                max={isoDay(field.properties.le)}
                value={typeof value === "string" ? value : ""}
                onCommit={(v) => send(v === "" ? null : v)}
              />
            );
          case "text": {
            const text = {
              ...attrs,
              minLength: field.properties.min_length,
              maxLength: field.properties.max_length,
              placeholder: field.properties.form_placeholder,
              value: typeof value === "string" ? value : "",
              onCommit: (v: string) => send(v === "" ? null : v),
            };
            return field.properties.textarea ? <CommitTextarea {...text} rows={3} /> : <CommitInput {...text} />;
          }
        }
      }}
    </Field>
  );
}

export function CustomFields({ session }: Props) {
  const fields = [...session.checkout.attached_custom_fields].sort((a, b) => a.order - b.order);
  if (!fields.length) return null;
  return (
    <fieldset className="group">
      <legend>Details</legend>
      {fields.map((f) => (
        <CustomFieldInput key={f.custom_field_id} attached={f} session={session} />
      ))}
    </fieldset>
  );
}

const LINES = [
  { key: "line1", label: "Address", autoComplete: "address-line1" },
  { key: "line2", label: "Address line 2", autoComplete: "address-line2" },
  { key: "city", label: "City", autoComplete: "address-level2" },
  { key: "postal_code", label: "Postal code", autoComplete: "postal-code" },
  { key: "state", label: "State / province", autoComplete: "address-level1" },
] as const;
/** The address's keys the server may fill in: the country and each line. */
const ADDRESS_KEYS = ["country", ...LINES.map((l) => l.key)] as const;

type AddressDraft = Partial<AddressInput>;

function withServerLines(draft: AddressDraft, server: Partial<Record<keyof AddressInput, string | null>> | null | undefined): AddressDraft {
  const out: AddressDraft = Object.assign({}, draft);
  for (const key of ADDRESS_KEYS) {
    const value = server?.[key];
    if (value && !out[key]) out[key] = value;
  }
  return out;
}

/** The billing address lines billing_address_fields asks for; sent whole once a country is chosen. */
export function AddressFields({ session }: Props) {
  const { checkout, errors, update } = session;
  const modes = checkout.billing_address_fields;
  const [draft, setDraft] = useState<AddressDraft>(checkout.customer_billing_address ?? {});
  // The server's address fills only the lines still empty here: an answer to an earlier line's
  // update (its later lines null) must not wipe what the buyer typed since.
  useEffect(() => setDraft((d) => withServerLines(d, checkout.customer_billing_address)), [checkout.customer_billing_address]);
  const visible = LINES.filter((l) => modes[l.key] !== "disabled");
  if (modes.country === "disabled" && visible.length === 0) return null;
  const send = (next: AddressDraft) => {
    setDraft(next);
    if (!next.country) return;
    const address: AddressInput = { country: next.country };
    for (const l of LINES) if (next[l.key]) address[l.key] = next[l.key];
    void update({ customer_billing_address: address }, ["customer_billing_address"]);
  };
  const err = (k: string) => errors[`customer_billing_address.${k}`] ?? (k === "country" ? errors.customer_billing_address : undefined);
  return (
    <fieldset className="group">
      <legend>Billing address</legend>
      <Field label="Country" required={modes.country === "required"} error={err("country")}>
        {(ids) => (
          <select
            {...aria(ids)}
            name="country"
            autoComplete="country"
            required={modes.country === "required"}
            value={draft.country ?? ""}
            onChange={(e) => send({ ...draft, country: e.target.value })}
          >
            <CountryOptions />
          </select>
        )}
      </Field>
      <div className="grid-2">
        {visible.map((l) => (
          <TextField
            key={l.key}
            label={l.label}
            name={l.key}
            autoComplete={l.autoComplete}
            required={modes[l.key] === "required"}
            error={err(l.key)}
            value={draft[l.key] ?? ""}
            onCommit={(v) => send({ ...draft, [l.key]: v })}
          />
        ))}
      </div>
    </fieldset>
  );
}

export function BusinessFields({ session }: Props) {
  const { checkout, errors, update } = session;
  const [business, setBusiness] = useOptimistic(checkout.is_business_customer);
  return (
    <fieldset className="group">
      <legend className="visually-hidden">Business purchase</legend>
      <div className="field field--checkbox">
        <input
          id="is-business"
          type="checkbox"
          checked={business}
          onChange={(e) => {
            setBusiness(e.target.checked);
            void update({ is_business_customer: e.target.checked }, ["is_business_customer"]);
          }}
        />
        <label htmlFor="is-business">I'm purchasing as a business</label>
      </div>
      {business ? (
        <>
          <TextField
            label="Business name"
            name="business-name"
            autoComplete="organization"
            required
            error={errors.customer_billing_name}
            value={checkout.customer_billing_name}
            onCommit={(v) => void update({ customer_billing_name: v }, ["customer_billing_name"])}
          />
          <TextField
            label="Tax ID"
            name="tax-id"
            help="VAT, GST or another tax number, checked against the billing country."
            error={errors.customer_tax_id}
            value={checkout.customer_tax_id}
            onCommit={(v) => void update({ customer_tax_id: v }, ["customer_tax_id"])}
          />
        </>
      ) : null}
    </fieldset>
  );
}
