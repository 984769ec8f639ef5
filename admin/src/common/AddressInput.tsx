// A postal address (line1, line2, postal code, city, state, country) at `source`.
import { TextInput } from "react-admin";
import { Box, Typography } from "@mui/material";

export function AddressInput({ source, label }: { source: string; label: string }) {
  return (
    <>
      <Typography variant="subtitle2">{label}</Typography>
      <Box sx={{ display: "flex", flexWrap: "wrap", columnGap: 2 }}>
        <TextInput source={`${source}.line1`} label="Line 1" />
        <TextInput source={`${source}.line2`} label="Line 2" />
        <TextInput source={`${source}.postal_code`} label="Postal code" />
        <TextInput source={`${source}.city`} label="City" />
        <TextInput source={`${source}.state`} label="State" />
        <TextInput source={`${source}.country`} label="Country" helperText="Two letters, e.g. US" />
      </Box>
    </>
  );
}
