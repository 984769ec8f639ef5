import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import { valueAt } from "../format";
import { CopyButton } from "./CopyButton";
import type { SourceProps } from "./SourceProps";

/** An id, shortened, with a copy button; `secondary`: greyed, beside the name it stands for. */
export function IdField({ source = "id", secondary = false }: Partial<SourceProps> & { secondary?: boolean }) {
  // `label` is read by the show layout around it
  const record = useRecordContext();
  const value = record ? valueAt(record, source) : undefined;
  if (typeof value !== "string" || !value)
    return secondary ? null : (
      <Typography component="span" variant="body2">
        —
      </Typography>
    );
  const short = value.length > 14 ? `${value.slice(0, 8)}…${value.slice(-4)}` : value;
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.25 }}>
      <Typography
        component="code"
        variant="body2"
        title={value}
        color={secondary ? "text.secondary" : undefined}
        sx={{ fontFamily: "monospace", fontSize: secondary ? "0.75rem" : "0.8rem" }}
      >
        {short}
      </Typography>
      <CopyButton value={value} label={`Copy ${source.replace(/_/g, " ")}`} />
    </Box>
  );
}
