// The organization's OAuth2 applications (Settings): listed, registered with their client secret
// shown once, edited and deleted, for the signed-in owners and admins.
import AppsIcon from "@mui/icons-material/Apps";
import { ClientCreate } from "./ClientCreate";
import { ClientEdit } from "./ClientEdit";
import { ClientList } from "./ClientList";

export default { list: ClientList, create: ClientCreate, edit: ClientEdit, icon: AppsIcon, recordRepresentation: "client_name" };
