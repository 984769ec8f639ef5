// Discounts: a fixed amount or a percentage, once / forever / for some months, with an optional
// code, a validity window, a redemption limit, and the products it applies to.
import LocalOfferIcon from "@mui/icons-material/LocalOffer";
import { DiscountCreate } from "./DiscountCreate";
import { DiscountEdit } from "./DiscountEdit";
import { DiscountList } from "./DiscountList";
import { DiscountShow } from "./DiscountShow";

export default {
  list: DiscountList,
  show: DiscountShow,
  create: DiscountCreate,
  edit: DiscountEdit,
  icon: LocalOfferIcon,
  recordRepresentation: "name",
};
