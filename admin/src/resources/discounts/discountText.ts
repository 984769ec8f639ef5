import type { Discount } from "../../api";
import { formatMoney } from "../../common/format";

export function discountText(d: Discount): string {
  const off = "amount" in d ? formatMoney(d.amount, d.currency) : `${d.basis_points / 100}%`;
  const when =
    d.duration === "once"
      ? "once"
      : d.duration === "forever"
        ? "forever"
        : `for ${"duration_in_months" in d ? d.duration_in_months : "?"} months`;
  return `${off} off, ${when}`;
}
