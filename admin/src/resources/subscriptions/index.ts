// Subscriptions: cancel at period end, uncancel, revoke now, change product (with proration),
// change discount; a free plan given without a checkout. Each action is a confirmed call the server answers before the screen changes.
import AutorenewIcon from "@mui/icons-material/Autorenew";
import { SubscriptionCreate } from "./SubscriptionCreate";
import { SubscriptionList } from "./SubscriptionList";
import { SubscriptionShow } from "./SubscriptionShow";

export default { list: SubscriptionList, show: SubscriptionShow, create: SubscriptionCreate, icon: AutorenewIcon };
