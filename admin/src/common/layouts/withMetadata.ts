import { rowsToMetadata } from "../inputs";

export type WithMetadata = Record<string, unknown> & { metadata_rows?: { key?: string; value?: string }[] };

/** The body a form sends: its metadata rows as the metadata object, then the resource's own `transform`. */
export function withMetadata<T extends WithMetadata>(
  transform: (data: Omit<T, "metadata_rows"> & { metadata: Record<string, string> }) => Record<string, unknown>,
) {
  return (data: T) => {
    const { metadata_rows, ...rest } = data;
    return transform({ ...rest, metadata: rowsToMetadata(metadata_rows) });
  };
}
