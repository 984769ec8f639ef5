import { useRecordContext } from "react-admin";
import { Tooltip, Typography } from "@mui/material";
import { formatDateTime, utcTitle, valueAt } from "../format";
import type { SourceProps } from "./SourceProps";

/** A date-time in the reader's locale; the UTC time on hover. */
export function DateTimeField({ source }: SourceProps) {
  const record = useRecordContext();
  const value = record ? (valueAt(record, source) as string | null | undefined) : undefined;
  if (!value)
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  return (
    <Tooltip title={utcTitle(value) ?? ""}>
      <Typography component="time" variant="body2" dateTime={value} sx={{ whiteSpace: "nowrap" }}>
        {formatDateTime(value)}
      </Typography>
    </Tooltip>
  );
}
