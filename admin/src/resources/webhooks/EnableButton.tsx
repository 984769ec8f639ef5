import { useDataProvider, useRecordContext } from "react-admin";
import PauseCircleIcon from "@mui/icons-material/PauseCircle";
import PlayCircleIcon from "@mui/icons-material/PlayCircle";
import type { WebhookEndpoint } from "../../api";
import type { BorealisDataProvider } from "../../dataProvider";
import { ConfirmAction } from "../../common/ConfirmAction";

export function EnableButton() {
  const e = useRecordContext<WebhookEndpoint>();
  const dataProvider = useDataProvider<BorealisDataProvider>();
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
      run={() => dataProvider.setWebhookEndpointEnabled(e.id, !disable)}
      success={disable ? "Endpoint disabled" : "Endpoint enabled"}
    />
  );
}
