// Orders: filter by status, date range, customer email (the server's Borealis extensions of the
// list; a 422 about one shows under it), customer, product, billing type, discount, checkout; see the amounts and
// lines; download the invoice and receipt PDFs; refund all or part with a reason (the server decides
// what can be refunded: this only asks and shows the answer); draft orders charged off-session.
import ReceiptIcon from "@mui/icons-material/Receipt";
import { OrderCreate } from "./OrderCreate";
import { OrderEdit } from "./OrderEdit";
import { OrderList } from "./OrderList";
import { OrderShow } from "./OrderShow";

export default { list: OrderList, show: OrderShow, create: OrderCreate, edit: OrderEdit, icon: ReceiptIcon };
