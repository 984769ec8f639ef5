// Customers: who they are, their state (active subscriptions, granted benefits, meters), their
// orders and subscriptions, their meters' usage and their events, the emails they were sent (a
// receipt can be sent again), and a customer-portal link for support.
import PeopleIcon from "@mui/icons-material/People";
import { CustomerCreate } from "./CustomerCreate";
import { CustomerEdit } from "./CustomerEdit";
import { CustomerList } from "./CustomerList";
import { CustomerShow } from "./CustomerShow";

export default {
  list: CustomerList,
  show: CustomerShow,
  create: CustomerCreate,
  edit: CustomerEdit,
  icon: PeopleIcon,
  recordRepresentation: "email",
};
