import { Show, Tab, TabbedShowLayout, TextField } from "react-admin";
import { EnumField } from "../../common/fields";
import { ShowActions, recordDetails } from "../../common/layouts";
import { DeliveriesInspector } from "./DeliveriesInspector";
import { EnableButton } from "./EnableButton";
import { QueueTab } from "./QueueTab";
import { ResetSecretButton } from "./ResetSecretButton";
import { StatusField } from "./StatusField";

export function EndpointShow() {
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
        <Tab label="Queue" path="queue">
          <QueueTab />
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
