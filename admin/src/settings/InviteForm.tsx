import { useState } from "react";
import { Box, Button, MenuItem, TextField } from "@mui/material";
import { session } from "../authProvider/session";
import { humanize } from "../common/format";
import { ROLES, type MemberAction } from "./memberRoles";

/** Invites by email with a role; only an owner may invite another owner. */
export function InviteForm({ myRole, act }: { myRole?: string; act: MemberAction }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  return (
    <Box
      component="form"
      sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", my: 1 }}
      onSubmit={(e) => {
        e.preventDefault();
        void act(() => session.invite(email, role), `Invitation sent to ${email}`).then(() => setEmail(""));
      }}
    >
      <TextField size="small" label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <TextField size="small" select label="Role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 120 }}>
        {ROLES.filter((r) => r !== "owner" || myRole === "owner").map((r) => (
          <MenuItem key={r} value={r}>
            {humanize(r)}
          </MenuItem>
        ))}
      </TextField>
      <Button type="submit" variant="contained">
        Invite
      </Button>
    </Box>
  );
}
