// Meters: which events count (a filter over event names and metadata), how they add up (count,
// sum, max, min, avg, unique of a property), the unit that sets how quantities are shown (plain
// units, per million tokens, or a custom label per a multiplier), a chart or table of the
// quantities over time, and the customers' usage of it.
import SpeedIcon from "@mui/icons-material/Speed";
import { MeterCreate } from "./MeterCreate";
import { MeterEdit } from "./MeterEdit";
import { MeterList } from "./MeterList";
import { MeterShow } from "./MeterShow";

export default { list: MeterList, show: MeterShow, create: MeterCreate, edit: MeterEdit, icon: SpeedIcon, recordRepresentation: "name" };
