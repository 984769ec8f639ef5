import type { ReactNode } from "react";
import { Create } from "react-admin";
import { withMetadata, type WithMetadata } from "./withMetadata";

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
