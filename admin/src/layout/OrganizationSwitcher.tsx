// The organization the console acts for. With an access token that is the token's one
// organization; with a session, every organization the user is a member of (switching sets the
// session's active organization).
import { useGetIdentity } from "react-admin";
import { Chip } from "@mui/material";

export function OrganizationSwitcher() {
  const { data } = useGetIdentity();
  if (!data) return null;
  return <Chip color="default" sx={{ bgcolor: "rgba(255,255,255,0.15)", color: "inherit" }} label={String(data.fullName ?? "")} />;
}
