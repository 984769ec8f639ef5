import { useRecordContext } from "react-admin";
import { Box, Typography } from "@mui/material";
import type { Product } from "../../api";
import { humanize } from "../../common/format";

export function CustomFieldsTab() {
  const record = useRecordContext<Product>();
  if (!record) return null;
  if (!record.attached_custom_fields.length) return <Typography variant="body2">No custom fields are asked at checkout.</Typography>;
  return (
    <Box component="ul" sx={{ pl: 2 }}>
      {record.attached_custom_fields.map((a) => (
        <li key={a.custom_field_id}>
          <Typography variant="body2">
            {a.custom_field.name} <code>{a.custom_field.slug}</code> — {humanize(a.custom_field.type)}
            {a.required ? " (required)" : ""}
          </Typography>
        </li>
      ))}
    </Box>
  );
}
