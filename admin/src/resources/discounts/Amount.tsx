import { useRecordContext } from "react-admin";
import type { Discount } from "../../api";
import { discountText } from "./discountText";

export function Amount() {
  const d = useRecordContext<Discount>();
  return d ? <>{discountText(d)}</> : null;
}
