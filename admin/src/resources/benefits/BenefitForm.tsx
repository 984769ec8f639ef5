// The benefit's form (create and edit) and the body it sends: the type's own properties.
import { FormDataConsumer, SimpleForm, TextInput, required } from "react-admin";
import { EnumField } from "../../common/fields";
import { enumValues } from "../../common/generic";
import { EnumInput, MetadataInput } from "../../common/inputs";
import type { FileRef } from "./FilesInput";
import { PropertiesInputs } from "./PropertiesInputs";

export function Form({ create }: { create: boolean }) {
  return (
    <SimpleForm>
      <BenefitInputs create={create} />
      <MetadataInput />
    </SimpleForm>
  );
}

/** The type (chosen on create), the description and the type's own properties. */
export function BenefitInputs({ create }: { create: boolean }) {
  return (
    <>
      {create ? <EnumInput source="type" values={enumValues("benefits", "type")} validate={required()} /> : <EnumField source="type" />}
      <TextInput source="description" validate={required()} fullWidth helperText="What the customer sees" />
      <FormDataConsumer>{({ formData }) => <PropertiesInputs type={formData.type} />}</FormDataConsumer>
    </>
  );
}

export type Values = Record<string, unknown> & { type?: string; properties?: Record<string, unknown>; download_files?: FileRef[] };

function propertiesBody(type: string | undefined, p: Record<string, unknown> = {}, files: FileRef[] = []): Record<string, unknown> {
  switch (type) {
    case "license_keys": {
      const expires = p.expires as { ttl?: number; timeframe?: string } | null | undefined;
      const activations = p.activations as { limit?: number; enable_customer_admin?: boolean } | null | undefined;
      return {
        prefix: p.prefix || null,
        expires: expires?.ttl ? { ttl: expires.ttl, timeframe: expires.timeframe ?? "year" } : null,
        activations: activations?.limit ? { limit: activations.limit, enable_customer_admin: !!activations.enable_customer_admin } : null,
        limit_usage: p.limit_usage ?? null,
      };
    }
    case "downloadables":
      return { files: files.map((f) => f.id), archived: p.archived ?? {} };
    case "custom":
      return { note: p.note ?? null };
    case "discord":
      return { guild_token: p.guild_token, role_id: p.role_id, kick_member: !!p.kick_member };
    case "meter_credit":
      return { meter_id: p.meter_id, units: p.units, rollover: !!p.rollover };
    default:
      return p;
  }
}

export function body(data: Values): Record<string, unknown> {
  const { download_files, properties, ...rest } = data;
  return { ...rest, properties: propertiesBody(rest.type, properties, download_files) };
}
