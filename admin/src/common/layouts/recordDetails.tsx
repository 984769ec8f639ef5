import type { ReactElement } from "react";
import { DateTimeField, IdField, MetadataField } from "../fields";

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
