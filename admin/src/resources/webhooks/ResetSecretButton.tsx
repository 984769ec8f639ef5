import { useState } from "react";
import { useDataProvider, useRecordContext } from "react-admin";
import KeyIcon from "@mui/icons-material/Key";
import type { WebhookEndpoint } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";
import { SecretDialog } from "./SecretDialog";

export function ResetSecretButton() {
  const e = useRecordContext<WebhookEndpoint>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [secret, setSecret] = useState<string | null>(null);
  if (!e) return null;
  return (
    <>
      <ConfirmAction
        label="Reset secret"
        icon={<KeyIcon />}
        title="Reset the signing secret?"
        content="Deliveries are signed with the new secret at once; your receiver must be given it."
        run={() => dataProvider.resetWebhookSecret(e.id).then(({ data }) => data)}
        onDone={(r) => setSecret((r as WebhookEndpoint).secret)}
        success="Secret reset"
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
