// The frames every resource's screens share, so a resource folder keeps only its own columns,
// fields, forms and actions: the list (filters, sort, toolbar, CSV export, rows that open the
// record), the show toolbar, the id / date / metadata lines that end a show page, a related list
// inside a tab, and create / edit (redirect to the record, pessimistic edits, metadata as rows).
import type { ReactElement, ReactNode } from "react";
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  EditButton,
  List,
  Pagination,
  ReferenceManyField,
  TopToolbar,
  useResourceContext,
  useResourceDefinition,
  type RaRecord,
  type SortPayload,
} from "react-admin";
import { Typography } from "@mui/material";
import { DateTimeField, IdField, MetadataField } from "./fields";
import { ListActions } from "./generic";
import { metadataToRows, rowsToMetadata, type MetadataValue } from "./inputs";
import { csvExporter } from "./csv";

type RowClick = "show" | false | ((id: string | number) => string);

/**
 * A resource's list: its filters, its sort, the toolbar (filter button when there are filters,
 * create when the contract has it and `create` allows, export), and rows that open the record.
 * `exportFields`: the CSV's columns; false: no export; absent: react-admin's own export.
 */
export function ResourceList({
  filters,
  sort,
  filterDefaultValues,
  exportFields,
  create = true,
  children,
  grid = true,
}: {
  filters?: ReactElement[];
  sort?: SortPayload;
  filterDefaultValues?: Record<string, unknown>;
  exportFields?: string[] | false;
  create?: boolean;
  children: ReactNode;
  /** false: `children` is the whole grid (a shared Datagrid of columns). */
  grid?: boolean;
}) {
  const resource = useResourceContext() ?? "";
  const exporter = exportFields === false ? false : exportFields ? csvExporter(resource, exportFields) : undefined;
  return (
    <List
      filters={filters}
      sort={sort}
      filterDefaultValues={filterDefaultValues}
      actions={<ListActions create={create} filters={!!filters} />}
      {...(exporter === undefined ? {} : { exporter })}
    >
      {grid ? (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          {children}
        </Datagrid>
      ) : (
        children
      )}
    </List>
  );
}

/** A show page's toolbar: the resource's own actions first, then Edit (when it has an edit view), then Delete when asked (pessimistic). */
export function ShowActions({ children, remove = false, editLabel }: { children?: ReactNode; remove?: boolean; editLabel?: string }) {
  const { hasEdit } = useResourceDefinition();
  return (
    <TopToolbar>
      {children}
      {hasEdit ? <EditButton label={editLabel} /> : null}
      {remove ? <DeleteButton mutationMode="pessimistic" /> : null}
    </TopToolbar>
  );
}

/**
 * The lines that end a show page: the id to copy, when it was made (labelled `created`; false: not
 * shown), and the metadata. An array, so the show layout labels each line.
 */
export function recordDetails({
  created = "Created",
  metadata = true,
}: { created?: string | false; metadata?: boolean } = {}): ReactElement[] {
  return [
    <IdField key="id" source="id" label="ID" />,
    ...(created ? [<DateTimeField key="created_at" source="created_at" label={created} />] : []),
    ...(metadata ? [<MetadataField key="metadata" source="metadata" label="Metadata" />] : []),
  ];
}

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

type WithMetadata = Record<string, unknown> & { metadata_rows?: { key?: string; value?: string }[] };

/** The body a form sends: its metadata rows as the metadata object, then the resource's own `transform`. */
function withMetadata<T extends WithMetadata>(
  transform: (data: Omit<T, "metadata_rows"> & { metadata: Record<string, string> }) => Record<string, unknown>,
) {
  return (data: T) => {
    const { metadata_rows, ...rest } = data;
    return transform({ ...rest, metadata: rowsToMetadata(metadata_rows) });
  };
}

/** Create, then open the new record; the form's metadata rows sent as metadata. */
export function RecordCreate<T extends WithMetadata>({
  transform,
  children,
}: {
  transform: (data: Omit<T, "metadata_rows"> & { metadata: Record<string, string> }) => Record<string, unknown>;
  children: ReactNode;
}) {
  return (
    <Create transform={withMetadata<T>(transform)} redirect="show">
      {children}
    </Create>
  );
}

/** Edit (pessimistic: the server answers before the screen changes), then back to the record; metadata as rows in the form. */
export function RecordEdit<R extends RaRecord & { metadata: Record<string, MetadataValue> }, T extends WithMetadata = WithMetadata>({
  transform,
  load,
  children,
}: {
  transform: (data: Omit<T, "metadata_rows"> & { metadata: Record<string, string> }) => Record<string, unknown>;
  /** What else the form holds besides the record (ids of embedded records…). */
  load?: (record: R) => Record<string, unknown>;
  children: ReactNode;
}) {
  return (
    <Edit
      mutationMode="pessimistic"
      transform={withMetadata<T>(transform)}
      redirect="show"
      queryOptions={{ select: (r: R) => ({ ...r, ...load?.(r), metadata_rows: metadataToRows(r.metadata) }) }}
    >
      {children}
    </Edit>
  );
}
