import { DeleteWithConfirmButton, Edit, Labeled, SaveButton, TextField, Toolbar, useRecordContext, useTranslate } from "react-admin";
import { Box } from "@mui/material";
import type { OAuth2Client } from "../../dataProvider/oauth2Clients";
import { ClientForm } from "./ClientForm";

function ClientToolbar() {
  const client = useRecordContext<OAuth2Client>();
  const translate = useTranslate();
  return (
    <Toolbar sx={{ justifyContent: "space-between" }}>
      <SaveButton />
      <DeleteWithConfirmButton
        confirmTitle={translate("borealis.oauth2_clients.delete_title", { name: client?.client_name ?? client?.client_id ?? "" })}
        confirmContent={translate("borealis.oauth2_clients.delete_content")}
        mutationMode="pessimistic"
      />
    </Toolbar>
  );
}

/** Edits the application's metadata (its client ID stays); deleting it ends its tokens. */
export function ClientEdit() {
  const translate = useTranslate();
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <Box sx={{ px: 2, pt: 2 }}>
        <Labeled label={translate("borealis.oauth2_clients.client_id")}>
          <TextField source="client_id" sx={{ wordBreak: "break-all" }} />
        </Labeled>
      </Box>
      <ClientForm toolbar={<ClientToolbar />} />
    </Edit>
  );
}
