// Benefits, one form per type: a custom note, license keys, downloadable files (uploaded here),
// GitHub repository access, a Discord role, meter credits; and the grants each has made.
import CardGiftcardIcon from "@mui/icons-material/CardGiftcard";
import { BenefitCreate } from "./BenefitCreate";
import { BenefitEdit } from "./BenefitEdit";
import { BenefitList } from "./BenefitList";
import { BenefitShow } from "./BenefitShow";

export default {
  list: BenefitList,
  show: BenefitShow,
  create: BenefitCreate,
  edit: BenefitEdit,
  icon: CardGiftcardIcon,
  recordRepresentation: "description",
};
