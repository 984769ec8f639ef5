import type { ReactElement, ReactNode } from "react";
import { Datagrid, List, SimpleList, useResourceContext, type RaRecord, type SortPayload } from "react-admin";
import { useMediaQuery, type Theme } from "@mui/material";
import { ListActions } from "../generic";
import { csvExporter } from "../csv";
import { ListEmpty } from "./ListEmpty";
import type { MobileRow } from "./mobileRow";

export type RowClick = "show" | false | ((id: string | number) => string);

/**
 * A resource's list: its filters, its sort, the toolbar (filter button when there are filters,
 * create when the contract has it and `create` allows, export), and rows that open the record.
 * `exportFields`: the CSV's columns; false: no export; absent: react-admin's own export.
 * `actions`: more buttons for the toolbar. `mobile`: the row on a narrow screen (a SimpleList).
 * With no records: ListEmpty.
 */
export function ResourceList<R extends RaRecord = RaRecord>({
  filters,
  sort,
  filterDefaultValues,
  exportFields,
  create = true,
  children,
  grid = true,
  actions,
  mobile,
  rowClick = "show",
}: {
  filters?: ReactElement[];
  sort?: SortPayload;
  filterDefaultValues?: Record<string, unknown>;
  exportFields?: string[] | false;
  create?: boolean;
  children: ReactNode;
  /** false: `children` is the whole grid (a shared Datagrid of columns). */
  grid?: boolean;
  actions?: ReactElement;
  mobile: MobileRow<R>;
  rowClick?: "show" | false;
}) {
  const resource = useResourceContext() ?? "";
  const empty = <ListEmpty defaults={filterDefaultValues} create={create} />;
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const exporter = exportFields === false ? false : exportFields ? csvExporter(resource, exportFields) : undefined;
  let rows: ReactNode;
  if (narrow) rows = <SimpleList<R> rowClick={rowClick} empty={empty} {...mobile} />;
  else if (grid)
    rows = (
      <Datagrid rowClick={rowClick} bulkActionButtons={false} empty={empty}>
        {children}
      </Datagrid>
    );
  else rows = children;
  return (
    <List
      filters={filters}
      sort={sort}
      filterDefaultValues={filterDefaultValues}
      actions={<ListActions create={create} filters={!!filters} extra={actions} />}
      empty={empty}
      {...(exporter === undefined ? {} : { exporter })}
    >
      {rows}
    </List>
  );
}
