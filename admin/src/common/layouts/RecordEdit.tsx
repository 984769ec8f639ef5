import type { ReactNode } from "react";
import { Edit, type RaRecord } from "react-admin";
import { metadataToRows, type MetadataValue } from "../inputs";
import { withMetadata, type WithMetadata } from "./withMetadata";

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
