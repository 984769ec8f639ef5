import { useState } from "react";
import { Create, useRedirect, useTranslate } from "react-admin";
import type { OAuth2Client } from "../../dataProvider/oauth2Clients";
import { SecretDialog } from "../webhooks/SecretDialog";
import { ClientForm } from "./ClientForm";
import { DEFAULT_SCOPES } from "./scopes";

/** Registers the application, then shows its client secret once before going back to the list. */
export function ClientCreate() {
  const redirect = useRedirect();
  const translate = useTranslate();
  const [created, setCreated] = useState<OAuth2Client | null>(null);
  return (
    <>
      <Create
        redirect={false}
        record={{ scopes: DEFAULT_SCOPES, redirect_uris: [] }}
        mutationOptions={{ onSuccess: (c: OAuth2Client) => setCreated(c) }}
      >
        <ClientForm />
      </Create>
      <SecretDialog
        secret={created?.client_secret ?? null}
        title={translate("borealis.oauth2_clients.secret_title")}
        onClose={() => created && redirect("edit", "oauth2-clients", created.id)}
      />
    </>
  );
}
