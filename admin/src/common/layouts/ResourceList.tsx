import type { ReactElement, ReactNode } from "react";
import { Datagrid, List, useResourceContext, type SortPayload } from "react-admin";
import { ListActions } from "../generic";
import { csvExporter } from "../csv";
import { ListEmpty } from "./ListEmpty";

export type RowClick = "show" | false | ((id: string | number) => string);

/**
 * A resource's list: its filters, its sort, the toolbar (filter button when there are filters,
 * create when the contract has it and `create` allows, export), and rows that open the record.
 * `exportFields`: the CSV's columns; false: no export; absent: react-admin's own export.
 * `actions`: more buttons for the toolbar. With no records: ListEmpty.
 */
export function ResourceList({
  filters,
  sort,
  filterDefaultValues,
  exportFields,
  create = true,
  children,
  grid = true,
  actions,
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
}) {
  const resource = useResourceContext() ?? "";
  const empty = <ListEmpty defaults={filterDefaultValues} create={create} />;
  const exporter = exportFields === false ? false : exportFields ? csvExporter(resource, exportFields) : undefined;
  return (
    <List
      filters={filters}
      sort={sort}
      filterDefaultValues={filterDefaultValues}
      actions={<ListActions create={create} filters={!!filters} extra={actions} />}
      empty={empty}
      {...(exporter === undefined ? {} : { exporter })}
    >
      {grid ? (
        <Datagrid rowClick="show" bulkActionButtons={false} empty={empty}>
          {children}
        </Datagrid>
      ) : (
        children
      )}
    </List>
  );
}
