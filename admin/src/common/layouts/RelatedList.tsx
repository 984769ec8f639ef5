import type { ReactNode } from "react";
import { Datagrid, Pagination, ReferenceManyField, type SortPayload } from "react-admin";
import { Typography } from "@mui/material";
import type { RowClick } from "./ResourceList";

/**
 * The records of `reference` whose `target` is this record (a customer's orders, a benefit's
 * grants), paged on the server; `empty` says there are none. The tab around it reads `label`:
 * pass label={false} for none.
 */
export function RelatedList({
  reference,
  target,
  empty,
  sort,
  rowClick = "show",
  perPage,
  rowsPerPageOptions,
  children,
}: {
  reference: string;
  target: string;
  empty: string;
  label?: string | false;
  sort?: SortPayload;
  rowClick?: RowClick;
  perPage?: number;
  rowsPerPageOptions?: number[];
  children: ReactNode;
}) {
  return (
    <ReferenceManyField
      reference={reference}
      target={target}
      sort={sort}
      perPage={perPage}
      pagination={<Pagination rowsPerPageOptions={rowsPerPageOptions} />}
    >
      <Datagrid
        rowClick={rowClick === false ? undefined : rowClick}
        bulkActionButtons={false}
        empty={<Typography variant="body2">{empty}</Typography>}
      >
        {children}
      </Datagrid>
    </ReferenceManyField>
  );
}
