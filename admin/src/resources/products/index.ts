import Inventory2Icon from "@mui/icons-material/Inventory2";
import { ProductList } from "./ProductList";
import { ProductShow } from "./ProductShow";
import { ProductCreate, ProductEdit } from "./ProductEdit";

export default {
  list: ProductList,
  show: ProductShow,
  edit: ProductEdit,
  create: ProductCreate,
  icon: Inventory2Icon,
  recordRepresentation: "name",
};
