import { useRecordContext } from "react-admin";
import { Box, Chip, Typography } from "@mui/material";
import { humanize, valueAt } from "../format";
import type { SourceProps } from "./SourceProps";

const STATUS_COLORS: Record<string, "success" | "warning" | "error" | "default" | "info"> = {
  active: "success",
  paid: "success",
  succeeded: "success",
  granted: "success",
  confirmed: "info",
  open: "info",
  trialing: "info",
  pending: "warning",
  past_due: "warning",
  partially_refunded: "warning",
  incomplete: "warning",
  canceled: "default",
  expired: "default",
  refunded: "default",
  revoked: "error",
  failed: "error",
  unpaid: "error",
  incomplete_expired: "error",
  disabled: "default",
  needs_response: "warning",
  under_review: "info",
  won: "success",
  lost: "error",
};

/** An enum value as words, as a chip coloured by what it means. */
export function EnumField({ source }: SourceProps) {
  const record = useRecordContext();
  const value = record ? valueAt(record, source) : undefined;
  if (value === null || value === undefined || value === "")
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  if (Array.isArray(value)) {
    return (
      <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }}>
        {value.map((v) => (
          <Chip key={String(v)} size="small" label={humanize(String(v))} />
        ))}
      </Box>
    );
  }
  return <Chip size="small" variant="outlined" color={STATUS_COLORS[String(value)] ?? "default"} label={humanize(String(value))} />;
}
