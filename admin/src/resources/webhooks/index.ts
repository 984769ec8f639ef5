// Webhook endpoints: where events are sent, in which format, which events; the signing secret is
// shown once (after creating it or resetting it); disabling and enabling an endpoint (a disabled
// one is sent nothing, its events are kept as not delivered); the deliveries inspector below each.
import WebhookIcon from "@mui/icons-material/Webhook";
import { EndpointCreate } from "./EndpointCreate";
import { EndpointEdit } from "./EndpointEdit";
import { EndpointList } from "./EndpointList";
import { EndpointShow } from "./EndpointShow";

export default {
  list: EndpointList,
  show: EndpointShow,
  create: EndpointCreate,
  edit: EndpointEdit,
  icon: WebhookIcon,
  recordRepresentation: "url",
};
