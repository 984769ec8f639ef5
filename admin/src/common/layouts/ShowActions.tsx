import type { ReactNode } from "react";
import { DeleteButton, EditButton, TopToolbar, useResourceDefinition } from "react-admin";

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
