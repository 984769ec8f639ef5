// Product media: images uploaded through the files API (service product_media) and listed by id
// on the product.
import { useState } from "react";
import { useInput, useNotify } from "react-admin";
import { Box, Button, CircularProgress, IconButton, Typography } from "@mui/material";
import DeleteIcon from "@mui/icons-material/Delete";
import { uploadFile } from "../../common/upload";

interface Media {
  id: string;
  name?: string;
  public_url?: string;
}

/** Holds `media_files` (id, name, url) in the form; saved as `medias` (the ids). */
export function MediaInput() {
  const { field } = useInput<Media[]>({ source: "media_files", defaultValue: [] });
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const files: Media[] = field.value ?? [];
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="subtitle2">Media</Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", my: 1 }}>
        {files.map((m) => (
          <Box
            key={m.id}
            sx={{ position: "relative", width: 96, height: 96, border: 1, borderColor: "divider", borderRadius: 1, overflow: "hidden" }}
          >
            {m.public_url ? (
              <img src={m.public_url} alt={m.name ?? "Product image"} style={{ width: "100%", height: "100%", objectFit: "cover" }} />
            ) : (
              <Typography variant="caption">{m.name}</Typography>
            )}
            <IconButton
              size="small"
              aria-label={`Remove ${m.name ?? "image"}`}
              sx={{ position: "absolute", top: 0, right: 0, bgcolor: "background.paper" }}
              onClick={() => field.onChange(files.filter((f) => f.id !== m.id))}
            >
              <DeleteIcon fontSize="inherit" />
            </IconButton>
          </Box>
        ))}
      </Box>
      <Button
        component="label"
        variant="outlined"
        size="small"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={14} /> : undefined}
      >
        Upload image
        <input
          hidden
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            setBusy(true);
            uploadFile(file, "product_media")
              .then((f) => field.onChange([...files, { id: f.id, name: f.name, public_url: "public_url" in f ? f.public_url : undefined }]))
              .catch((err: Error) => notify(err.message, { type: "error" }))
              .finally(() => setBusy(false));
          }}
        />
      </Button>
    </Box>
  );
}
