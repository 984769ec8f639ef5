import { SelectInput, SimpleForm, TextInput, required } from "react-admin";
import { enumValues } from "../../common/generic";
import { choicesOf } from "../../common/inputs";
import { EventsInput } from "./events";

export function Form() {
  return (
    <SimpleForm>
      <TextInput source="name" label="Name" fullWidth helperText="To tell it apart from your other endpoints (optional)" />
      <TextInput source="url" label="URL" validate={required()} fullWidth helperText="https://… (your receiver)" />
      <SelectInput
        source="format"
        choices={choicesOf(enumValues("webhooks-endpoints", "format"))}
        defaultValue="raw"
        validate={required()}
      />
      <EventsInput />
    </SimpleForm>
  );
}
