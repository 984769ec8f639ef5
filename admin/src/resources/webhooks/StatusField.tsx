import { useRecordContext } from "react-admin";
import { Chip } from "@mui/material";
import type { WebhookEndpoint } from "../../api";

/** Enabled, or disabled (by the merchant, or after failing for days or answering 410 Gone). */
export function StatusField(_props: { label?: string }) {
  const e = useRecordContext<WebhookEndpoint>();
  if (!e) return null;
  return e.enabled ? (
    <Chip size="small" color="success" variant="outlined" label="Enabled" />
  ) : (
    <Chip size="small" color="warning" label="Disabled" />
  );
}
