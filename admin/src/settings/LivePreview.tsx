import { useEffect, useState } from "react";
import { useDataProvider } from "react-admin";
import { useWatch } from "react-hook-form";
import { Alert, Box, FormControl, InputLabel, MenuItem, Select, Typography } from "@mui/material";
import type { EmailKind, EmailPreview } from "../api";
import type { BorealisDataProvider } from "../dataProvider";
import { HEX_COLOR, PREVIEW_KINDS } from "./emailKinds";

/** The chosen template rendered with sample data in the form's current (unsaved) colour. */
export function LivePreview() {
  const color: unknown = useWatch({ name: "email_settings.brand_color" });
  const dataProvider = useDataProvider<BorealisDataProvider>();
  const [kind, setKind] = useState<EmailKind>("order_confirmation");
  const [preview, setPreview] = useState<EmailPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const draft = typeof color === "string" && HEX_COLOR.test(color) ? color : null;
  useEffect(() => {
    let live = true;
    // a short pause so typing a colour asks once
    const timer = setTimeout(() => {
      dataProvider.previewEmail({ kind, brand_color: draft }).then(
        ({ data: p }) => live && (setPreview(p), setError(null)),
        (e: Error) => live && setError(e.message),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [dataProvider, kind, draft]);
  return (
    <Box component="section" aria-label="Preview" sx={{ mt: 3, width: "100%" }}>
      <Typography component="h2" variant="subtitle1">
        Preview
      </Typography>
      <FormControl size="small" sx={{ my: 1, minWidth: 280 }}>
        <InputLabel id="preview-kind-label">Template</InputLabel>
        <Select<EmailKind> labelId="preview-kind-label" label="Template" value={kind} onChange={(e) => setKind(e.target.value)}>
          {PREVIEW_KINDS.map(([k, label]) => (
            <MenuItem key={k} value={k}>
              {label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {preview ? (
        <>
          <Typography variant="body2" data-testid="preview-subject">
            Subject: {preview.subject}
          </Typography>
          <Box
            component="iframe"
            title={`Preview: ${preview.subject}`}
            srcDoc={preview.html}
            sandbox=""
            data-brand-color={draft ?? ""}
            sx={{ width: "100%", maxWidth: 680, height: 640, border: 1, borderColor: "divider", borderRadius: 1, mt: 1, bgcolor: "#fff" }}
          />
        </>
      ) : null}
    </Box>
  );
}
