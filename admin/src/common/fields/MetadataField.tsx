import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import { valueAt } from "../format";
import type { SourceProps } from "./SourceProps";

/** Metadata as key: value lines (a nested value, as system events carry, as JSON). */
export function MetadataField({ source = "metadata" }: Partial<SourceProps>) {
  // `label` is read by the show layout around it
  const record = useRecordContext();
  const value = record ? valueAt(record, source) : undefined;
  if (!value || typeof value !== "object" || !Object.keys(value).length)
    return (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  return (
    <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2 }}>
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <Box key={k} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" sx={{ fontFamily: "monospace" }}>
            {k}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
            {typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
