import { FunctionField, TextField } from "react-admin";
import type { WebhookEndpoint } from "../../api";
import { DateTimeField, EnumField } from "../../common/fields";
import { ResourceList, facts } from "../../common/layouts";
import { StatusField } from "./StatusField";

export function EndpointList() {
  return (
    <ResourceList
      mobile={{
        primaryText: (e: WebhookEndpoint) => e.name ?? e.url,
        secondaryText: (e: WebhookEndpoint) =>
          facts(
            e.name ? e.url : null,
            e.enabled ? "Enabled" : "Disabled",
            `${e.events.length} event type${e.events.length === 1 ? "" : "s"}`,
          ),
      }}
      exportFields={false}
    >
      <TextField source="name" label="Name" sortable={false} emptyText="—" />
      <TextField source="url" label="URL" sortable={false} />
      <StatusField label="Status" />
      <EnumField source="format" />
      <FunctionField label="Events" render={(e: WebhookEndpoint) => `${e.events.length} event type${e.events.length === 1 ? "" : "s"}`} />
      <DateTimeField source="created_at" label="Created" />
    </ResourceList>
  );
}
