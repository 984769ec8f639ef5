import { useState } from "react";
import { Create, useRedirect } from "react-admin";
import type { WebhookEndpoint } from "../../api";
import { Form } from "./EndpointForm";
import { SecretDialog } from "./SecretDialog";

export function EndpointCreate() {
  const redirect = useRedirect();
  const [created, setCreated] = useState<WebhookEndpoint | null>(null);
  return (
    <>
      <Create redirect={false} mutationOptions={{ onSuccess: (e: WebhookEndpoint) => setCreated(e) }}>
        <Form />
      </Create>
      <SecretDialog secret={created?.secret ?? null} onClose={() => created && redirect("show", "webhooks-endpoints", created.id)} />
    </>
  );
}
