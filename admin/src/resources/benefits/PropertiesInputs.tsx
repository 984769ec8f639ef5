import { AutocompleteInput, BooleanInput, NumberInput, ReferenceInput, TextInput, required, minValue } from "react-admin";
import { EnumInput } from "../../common/inputs";
import { FilesInput } from "./FilesInput";

export function PropertiesInputs({ type }: { type?: string }) {
  switch (type) {
    case "custom":
      return <TextInput source="properties.note" label="Note shown to the customer" multiline minRows={3} fullWidth />;
    case "license_keys":
      return (
        <>
          <TextInput source="properties.prefix" label="Key prefix" />
          <NumberInput source="properties.expires.ttl" label="Expires after" min={1} helperText="Empty: never expires" />
          <EnumInput source="properties.expires.timeframe" label="Unit" values={["day", "month", "year"]} />
          <NumberInput source="properties.activations.limit" label="Activation limit" min={1} helperText="Empty: no activations" />
          <BooleanInput source="properties.activations.enable_customer_admin" label="Customers manage their activations" />
          <NumberInput source="properties.limit_usage" label="Usage limit" min={1} />
        </>
      );
    case "downloadables":
      return <FilesInput />;
    case "github_repository":
      return (
        <>
          <TextInput source="properties.repository_owner" label="Repository owner" validate={required()} />
          <TextInput source="properties.repository_name" label="Repository name" validate={required()} />
          <EnumInput
            source="properties.permission"
            label="Permission"
            values={["pull", "triage", "push", "maintain", "admin"]}
            validate={required()}
          />
        </>
      );
    case "discord":
      return (
        <>
          <TextInput source="properties.guild_token" label="Server (guild) token" validate={required()} />
          <TextInput source="properties.role_id" label="Role id" validate={required()} />
          <BooleanInput source="properties.kick_member" label="Remove from the server when revoked" />
        </>
      );
    case "meter_credit":
      return (
        <>
          <ReferenceInput source="properties.meter_id" reference="meters">
            <AutocompleteInput label="Meter" optionText="name" validate={required()} filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>
          <NumberInput source="properties.units" label="Units credited" validate={[required(), minValue(1)]} />
          <BooleanInput source="properties.rollover" label="Unused units roll over" />
        </>
      );
    default:
      return null;
  }
}
