// Fields every screen uses: money in the record's currency, dates with UTC on hover, enums as
// words, copyable ids and links.
import { useState } from "react";
import { useRecordContext, useNotify } from "react-admin";
import { Box, Chip, IconButton, Tooltip, Typography } from "@mui/material";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import CheckIcon from "@mui/icons-material/Check";
import { formatDateTime, formatMoney, humanize, utcTitle, valueAt } from "./format";

interface SourceProps {
  source: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/** Integer minor units at `source`, in the currency at `currencySource` (default: the record's `currency`). */
export function MoneyField({
  source,
  currencySource = "currency",
  currency,
}: SourceProps & { currencySource?: string; currency?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const value = valueAt(record, source);
  const cur = currency ?? (valueAt(record, currencySource) as string | undefined);
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
      {typeof value === "number" ? formatMoney(value, cur) : "—"}
    </Typography>
  );
}

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
