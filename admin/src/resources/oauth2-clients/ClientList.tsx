import { CreateButton, Datagrid, FunctionField, List, SimpleList, TextField, TopToolbar, useTranslate } from "react-admin";
import { Alert, Typography, useMediaQuery, type Theme } from "@mui/material";
import { credentials } from "../../authProvider/credentials";
import { formatDateTime } from "../../common/format";
import type { OAuth2Client } from "../../dataProvider/oauth2Clients";

const created = (c: OAuth2Client) => (c.client_id_issued_at ? formatDateTime(new Date(c.client_id_issued_at * 1000).toISOString()) : "—");

/** The organization's OAuth2 applications; a row opens the application to edit it. */
export function ClientList() {
  const translate = useTranslate();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  // Registration acts as the signed-in person (better-auth's session), never as an access token.
  if (credentials.bearer()) return <Alert severity="info">{translate("borealis.oauth2_clients.session_only")}</Alert>;
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {translate("borealis.oauth2_clients.intro")}
      </Typography>
      <List
        actions={
          <TopToolbar>
            <CreateButton />
          </TopToolbar>
        }
        exporter={false}
      >
        {narrow ? (
          <SimpleList<OAuth2Client>
            primaryText={(c) => c.client_name ?? c.client_id}
            secondaryText={(c) => (c.redirect_uris ?? []).join(", ")}
            tertiaryText={created}
            rowClick="edit"
          />
        ) : (
          <Datagrid rowClick="edit" bulkActionButtons={false}>
            <TextField source="client_name" label={translate("borealis.oauth2_clients.client_name")} sortable={false} />
            <TextField source="client_id" label={translate("borealis.oauth2_clients.client_id")} sortable={false} />
            <FunctionField
              label={translate("borealis.oauth2_clients.redirect_uris")}
              render={(c: OAuth2Client) => (c.redirect_uris ?? []).join(", ")}
            />
            <FunctionField label={translate("borealis.oauth2_clients.created")} render={created} />
          </Datagrid>
        )}
      </List>
    </>
  );
}
