// Another record named where a screen mentions it: a product by its name, a customer by email, a
// benefit by description, each linked to its page. A name the record already embeds is shown as is
// (LinkField); one it does not is fetched with ReferenceField, which react-admin batches into one
// getMany per resource for every cell on the page (ReferenceNameField). The id stays a copyable
// detail beside the name, never the only thing shown.
import type { ReactNode } from "react";
import { ReferenceField, TextField, useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import { Link } from "react-router-dom";
import { IdField } from "./fields";
import { valueAt } from "./format";
import { REFERENCE_TEXT } from "./generic";

interface ReferenceProps {
  /** The field holding the other record's id. */
  source: string;
  /** Its resource (`products`, `benefits`…). */
  reference: string;
  // read by the list or show layout around the field
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/**
 * The record at `source`, by the text REFERENCE_TEXT names for its resource, linked to its show
 * page, with its id under it to copy.
 */
export function ReferenceNameField({ source, reference }: ReferenceProps) {
  return (
    <Box component="span" sx={{ display: "inline-flex", flexDirection: "column", alignItems: "flex-start" }}>
      <ReferenceField source={source} reference={reference} link="show" emptyText="—">
        <TextField source={REFERENCE_TEXT[reference] ?? "id"} />
      </ReferenceField>
      <IdField source={source} secondary />
    </Box>
  );
}

/**
 * A link to the record at `source` showing a text the record embeds (`text`, a path such as
 * `customer.email`), else `children`, else the id itself; "—" when there is no such record.
 */
export function LinkField({ source, reference, text, children }: ReferenceProps & { text?: string; children?: ReactNode }) {
  const record = useRecordContext();
  const id = record ? valueAt(record, source) : undefined;
  const shown = text ? valueAt(record, text) : undefined;
  return (
    <Typography component="span" variant="body2">
      {typeof id === "string" && id ? (
        // a link in a clickable row opens its own page, not the row's
        <Link to={`/${reference}/${id}/show`} onClick={(e) => e.stopPropagation()}>
          {children ?? String(shown ?? id)}
        </Link>
      ) : (
        "—"
      )}
    </Typography>
  );
}
