// An OAuth2 application's metadata: its name, where people come back to (one redirect URI a
// line), the scopes it may ask for, and the links its consent screen shows.
import type { ReactElement } from "react";
import { AutocompleteArrayInput, SimpleForm, TextInput, required, useTranslate } from "react-admin";
import { Typography } from "@mui/material";
import { CLIENT_SCOPES } from "./scopes";

const lines = (value: unknown) => (Array.isArray(value) ? value.join("\n") : "");
const uris = (text: string) => text.split("\n");

export function ClientForm({ toolbar }: { toolbar?: ReactElement | false }) {
  const translate = useTranslate();
  const words = (key: string) => translate(`borealis.oauth2_clients.${key}`);
  return (
    <SimpleForm toolbar={toolbar}>
      <TextInput source="client_name" label={words("client_name")} validate={required()} fullWidth />
      <TextInput
        source="redirect_uris"
        label={words("redirect_uris")}
        helperText={words("redirect_uris_help")}
        validate={required()}
        multiline
        minRows={2}
        format={lines}
        parse={uris}
        fullWidth
      />
      <AutocompleteArrayInput source="scopes" label={words("scope")} helperText={words("scope_help")} choices={CLIENT_SCOPES} fullWidth />
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
        {words("links")}
      </Typography>
      <TextInput source="client_uri" label={words("client_uri")} type="url" fullWidth />
      <TextInput source="logo_uri" label={words("logo_uri")} type="url" fullWidth />
      <TextInput source="tos_uri" label={words("tos_uri")} type="url" fullWidth />
      <TextInput source="policy_uri" label={words("policy_uri")} type="url" fullWidth />
    </SimpleForm>
  );
}
