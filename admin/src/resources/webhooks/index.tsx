// Webhook endpoints: where events are sent, in which format, which events; the signing secret is
// shown once (after creating it or resetting it); disabling and enabling an endpoint (a disabled
// one is sent nothing, its events are kept as not delivered); the deliveries inspector below each.
import { useState } from "react";
import {
  Create,
  Edit,
  FunctionField,
  SelectInput,
  Show,
  SimpleForm,
  Tab,
  TabbedShowLayout,
  TextField,
  TextInput,
  required,
  useRecordContext,
  useRedirect,
} from "react-admin";
import { Box, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Typography, Button as MuiButton } from "@mui/material";
import WebhookIcon from "@mui/icons-material/Webhook";
import KeyIcon from "@mui/icons-material/Key";
import PauseCircleIcon from "@mui/icons-material/PauseCircle";
import PlayCircleIcon from "@mui/icons-material/PlayCircle";
import type { WebhookEndpoint } from "../../api";
import { CopyButton, DateTimeField, EnumField } from "../../common/fields";
import { enumValues } from "../../common/generic";
import { ResourceList, ShowActions, recordDetails } from "../../common/layouts";
import { choicesOf } from "../../common/inputs";
import { call } from "../../dataProvider/request";
import { ConfirmAction } from "../../common/ConfirmAction";
import { EventsInput } from "./events";
import { DeliveriesInspector } from "./deliveries";

/** Enabled, or disabled (by the merchant, or after failing for days or answering 410 Gone). */
function StatusField(_props: { label?: string }) {
  const e = useRecordContext<WebhookEndpoint>();
  if (!e) return null;
  return e.enabled ? (
    <Chip size="small" color="success" variant="outlined" label="Enabled" />
  ) : (
    <Chip size="small" color="warning" label="Disabled" />
  );
}

function EndpointList() {
  return (
    <ResourceList exportFields={false}>
      <TextField source="name" label="Name" sortable={false} emptyText="—" />
      <TextField source="url" label="URL" sortable={false} />
      <StatusField label="Status" />
      <EnumField source="format" />
      <FunctionField label="Events" render={(e: WebhookEndpoint) => `${e.events.length} event type${e.events.length === 1 ? "" : "s"}`} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}

/** The secret, once: after it is made it is not shown again (reset it to get a new one). */
export function SecretDialog({
  secret,
  onClose,
  title = "Signing secret",
}: {
  secret: string | null;
  onClose: () => void;
  title?: string;
}) {
  return (
    <Dialog open={!!secret} onClose={onClose} aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          Copy it now: it is not shown again.
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, bgcolor: "grey.100", p: 1, borderRadius: 1 }}>
          <Typography component="code" variant="body2" sx={{ wordBreak: "break-all" }} data-testid="secret">
            {secret}
          </Typography>
          {secret ? <CopyButton value={secret} label="Copy secret" /> : null}
        </Box>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>I have copied it</MuiButton>
      </DialogActions>
    </Dialog>
  );
}

function ResetSecretButton() {
  const e = useRecordContext<WebhookEndpoint>();
  const [secret, setSecret] = useState<string | null>(null);
  if (!e) return null;
  return (
    <>
      <ConfirmAction
        label="Reset secret"
        icon={<KeyIcon />}
        title="Reset the signing secret?"
        content="Deliveries are signed with the new secret at once; your receiver must be given it."
        run={() => call<WebhookEndpoint>("PATCH", "/v1/webhooks/endpoints/{id}/secret", { path: { id: e.id } })}
        onDone={(r) => setSecret((r as WebhookEndpoint).secret)}
        success="Secret reset"
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}

function EnableButton() {
  const e = useRecordContext<WebhookEndpoint>();
  if (!e) return null;
  const disable = e.enabled;
  return (
    <ConfirmAction
      label={disable ? "Disable" : "Enable"}
      icon={disable ? <PauseCircleIcon /> : <PlayCircleIcon />}
      title={`${disable ? "Disable" : "Enable"} this endpoint?`}
      content={
        disable
          ? "It is sent nothing until you enable it again. Its events are still recorded, as not delivered: replay them from the deliveries once it is enabled."
          : "It is sent new events again. Events recorded while it was disabled are sent by replaying failed events."
      }
      run={() => call<WebhookEndpoint>("PATCH", "/v1/webhooks/endpoints/{id}", { path: { id: e.id }, body: { enabled: !disable } })}
      success={disable ? "Endpoint disabled" : "Endpoint enabled"}
    />
  );
}

function EndpointShow() {
  return (
    <Show
      actions={
        <ShowActions remove>
          <EnableButton />
          <ResetSecretButton />
        </ShowActions>
      }
    >
      <TabbedShowLayout>
        <Tab label="Deliveries">
          <DeliveriesInspector />
        </Tab>
        <Tab label="Endpoint" path="endpoint">
          <TextField source="name" label="Name" emptyText="—" />
          <TextField source="url" label="URL" />
          <StatusField label="Status" />
          <EnumField source="format" />
          <EnumField source="events" />
          {recordDetails({ metadata: false })}
        </Tab>
      </TabbedShowLayout>
    </Show>
  );
}

function Form() {
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

function EndpointCreate() {
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

function EndpointEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <Form />
    </Edit>
  );
}

export default {
  list: EndpointList,
  show: EndpointShow,
  create: EndpointCreate,
  edit: EndpointEdit,
  icon: WebhookIcon,
  recordRepresentation: "url",
};
