import { useState } from "react";
import { useNotify } from "react-admin";
import { IconButton, Tooltip } from "@mui/material";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import CheckIcon from "@mui/icons-material/Check";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const notify = useNotify();
  const [copied, setCopied] = useState(false);
  return (
    <Tooltip title={copied ? "Copied" : label}>
      <IconButton
        size="small"
        aria-label={label}
        onClick={(e) => {
          e.stopPropagation();
          e.preventDefault();
          void navigator.clipboard?.writeText(value).then(
            () => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            },
            () => notify("Could not copy to the clipboard", { type: "warning" }),
          );
        }}
      >
        {copied ? <CheckIcon fontSize="inherit" /> : <ContentCopyIcon fontSize="inherit" />}
      </IconButton>
    </Tooltip>
  );
}
