// A list row on a narrow screen (react-admin's SimpleList): what the record is, then a line of
// its key facts, with the amount on the right, in place of a table that would lose its columns.
import type { ReactNode } from "react";
import type { RaRecord } from "react-admin";

export interface MobileRow<R extends RaRecord = RaRecord> {
  primaryText: (record: R) => ReactNode;
  secondaryText?: (record: R) => ReactNode;
  /** Shown on the right of the first line: the amount, usually. */
  tertiaryText?: (record: R) => ReactNode;
}

/** Facts joined by a middle dot, the empty ones left out: "Paid · Nov 27, 2026". */
export function facts(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "" && p !== "—").join(" · ");
}
