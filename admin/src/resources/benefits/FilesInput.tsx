import { useState } from "react";
import { useInput, useNotify } from "react-admin";
import { Box, Button, CircularProgress, IconButton, Typography } from "@mui/material";
import DeleteIcon from "@mui/icons-material/Delete";
import { uploadFile } from "../../common/upload";

export interface FileRef {
  id: string;
  name?: string;
}

/** Downloadable files: uploaded here, kept as ids. */
export function FilesInput() {
  const { field, fieldState } = useInput<FileRef[]>({
    source: "download_files",
    defaultValue: [],
    validate: (v: FileRef[] | undefined) => (v?.length ? undefined : "Upload at least one file"),
  });
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const files: FileRef[] = field.value ?? [];
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="subtitle2">Files</Typography>
      {files.map((f) => (
        <Box key={f.id} sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography variant="body2">{f.name ?? f.id}</Typography>
          <IconButton
            size="small"
            aria-label={`Remove ${f.name ?? f.id}`}
            onClick={() => field.onChange(files.filter((x) => x.id !== f.id))}
          >
            <DeleteIcon fontSize="inherit" />
          </IconButton>
        </Box>
      ))}
      <Button
        component="label"
        variant="outlined"
        size="small"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={14} /> : undefined}
        sx={{ mt: 1 }}
      >
        Upload a file
        <input
          hidden
          type="file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            setBusy(true);
            uploadFile(file, "downloadable")
              .then((r) => field.onChange([...files, { id: r.id, name: r.name }]))
              .catch((err: Error) => notify(err.message, { type: "error" }))
              .finally(() => setBusy(false));
          }}
        />
      </Button>
      {fieldState.error ? (
        <Typography variant="caption" color="error" component="p">
          {fieldState.error.message}
        </Typography>
      ) : null}
    </Box>
  );
}
