import { useRecordContext } from "react-admin";
import { Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import type { Order } from "../../api";
import { formatMoney } from "../../common/format";

export function Items() {
  const o = useRecordContext<Order>();
  if (!o) return null;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>Item</TableCell>
          <TableCell align="right">Amount</TableCell>
          <TableCell align="right">Tax</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {o.items.map((i) => (
          <TableRow key={i.id}>
            <TableCell>
              {i.label}
              {i.proration ? " (proration)" : ""}
            </TableCell>
            <TableCell align="right">{formatMoney(i.amount, o.currency)}</TableCell>
            <TableCell align="right">{formatMoney(i.tax_amount, o.currency)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
