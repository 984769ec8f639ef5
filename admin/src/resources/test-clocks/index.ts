// Billing test clocks (sandbox): a clock holds some customers at a frozen time; advancing it runs
// their subscriptions' renewals, dunning and endings as if that time had passed.
import ScheduleIcon from "@mui/icons-material/Schedule";
import { TestClockCreate } from "./TestClockCreate";
import { TestClockList } from "./TestClockList";
import { TestClockShow } from "./TestClockShow";

export default { list: TestClockList, show: TestClockShow, create: TestClockCreate, icon: ScheduleIcon, recordRepresentation: "name" };
