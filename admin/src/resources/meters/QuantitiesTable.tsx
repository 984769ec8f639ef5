import { Box, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import type { Meter } from "../../api";
import { formatMeterQuantity, humanize, utcTitle } from "../../common/format";
import type { QuantityRow, Interval } from "./quantityWindow";

export function QuantitiesTable({ rows, interval, meter }: { rows: QuantityRow[]; interval: Interval; meter: Meter }) {
  return (
    <Box>
      <Table size="small" aria-label="Quantities">
        <TableHead>
          <TableRow>
            <TableCell>{humanize(interval)} starting</TableCell>
            <TableCell align="right">Quantity</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((q) => (
            <TableRow key={q.timestamp}>
              <TableCell>
                <time dateTime={q.timestamp} title={utcTitle(q.timestamp)}>
                  {q.label}
                </time>
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                {formatMeterQuantity(q.quantity, meter)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
