// Subscriptions: cancel at period end, uncancel, revoke now, change product (with proration),
// change discount. Each action is a confirmed call the server answers before the screen changes.
import AutorenewIcon from "@mui/icons-material/Autorenew";
import { SubscriptionList } from "./SubscriptionList";
import { SubscriptionShow } from "./SubscriptionShow";

export default { list: SubscriptionList, show: SubscriptionShow, icon: AutorenewIcon };
