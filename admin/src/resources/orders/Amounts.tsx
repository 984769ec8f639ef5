import { useRecordContext } from "react-admin";
import { Table, TableBody, TableCell, TableRow } from "@mui/material";
import type { Order } from "../../api";
import { formatMoney } from "../../common/format";

export function Amounts() {
  const o = useRecordContext<Order>();
  if (!o) return null;
  // deductions shown with a minus sign, and only when there is one
  const rows: [string, number][] = [
    ["Subtotal", o.subtotal_amount],
    ["Discount", o.discount_amount ? -o.discount_amount : 0],
    ["Net", o.net_amount],
    ["Tax", o.tax_amount],
    ["Total", o.total_amount],
    ["Refunded", o.refunded_amount ? -o.refunded_amount : 0],
  ];
  return (
    <Table size="small" sx={{ maxWidth: 420 }}>
      <TableBody>
        {rows.map(([label, v]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row">
              {label}
            </TableCell>
            <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
              {formatMoney(v, o.currency)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
