import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import type { Product } from "../../api";

export function MediaTab() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  if (!record.medias.length) return <Typography variant="body2">No images.</Typography>;
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      {record.medias.map((m) => (
        <img key={m.id} src={m.public_url} alt={m.name} style={{ width: 160, height: 160, objectFit: "cover", borderRadius: 4 }} />
      ))}
    </Box>
  );
}
