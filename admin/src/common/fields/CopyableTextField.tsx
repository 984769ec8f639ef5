import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import { valueAt } from "../format";
import { CopyButton } from "./CopyButton";
import type { SourceProps } from "./SourceProps";

/** A link (checkout link URL, portal link) with a copy button. */
export function CopyableTextField({ source }: SourceProps) {
  const record = useRecordContext();
  const value = record ? valueAt(record, source) : undefined;
  if (typeof value !== "string" || !value)
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, maxWidth: "100%" }}>
      <Typography
        component="span"
        variant="body2"
        sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", maxWidth: 360 }}
        title={value}
      >
        {value}
      </Typography>
      <CopyButton value={value} label={`Copy ${source.replace(/_/g, " ")}`} />
    </Box>
  );
}
