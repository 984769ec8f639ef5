// The organization the console acts for: with a session, any organization the person is a member
// of (switching sets the session's active organization and reloads every screen's data); with an
// access token, the token's one organization. A person may also create another organization here.
import { useState } from "react";
import { useGetIdentity, useNotify } from "react-admin";
import { useNavigate } from "react-router-dom";
import { Button, Divider, ListItemIcon, ListItemText, Menu, MenuItem } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import UnfoldMoreIcon from "@mui/icons-material/UnfoldMore";
import CheckIcon from "@mui/icons-material/Check";
import type { Identity } from "../authProvider";
import { forgetIdentity } from "../authProvider";
import { session } from "../authProvider/session";

export function OrganizationSwitcher() {
  const { data } = useGetIdentity();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const notify = useNotify();
  const navigate = useNavigate();
  const me = data as Identity | undefined;
  if (!me) return null;
  const current = me.organization?.name ?? "No organization";
  const canSwitch = !me.viaToken;
  return (
    <>
      <Button
        color="inherit"
        aria-haspopup={canSwitch ? "menu" : undefined}
        aria-label={`Organization: ${current}${canSwitch ? " (switch)" : ""}`}
        endIcon={canSwitch ? <UnfoldMoreIcon /> : undefined}
        onClick={(e) => canSwitch && setAnchor(e.currentTarget)}
        sx={{
          textTransform: "none",
          maxWidth: { xs: 104, sm: 260 },
          minWidth: 0,
          flexShrink: 0,
          overflow: "hidden",
          whiteSpace: "nowrap",
          textOverflow: "ellipsis",
          display: "block",
        }}
      >
        {current}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {me.organizations.map((o) => (
          <MenuItem
            key={o.id}
            selected={o.id === me.organization?.id}
            onClick={async () => {
              setAnchor(null);
              if (o.id === me.organization?.id) return;
              try {
                await session.setActive(o.id);
                forgetIdentity();
                // every screen's data is the other organization's now: start the console afresh
                window.location.assign("/dashboard/");
              } catch (err) {
                notify((err as Error).message, { type: "error" });
              }
            }}
          >
            <ListItemText>{o.name}</ListItemText>
            {o.id === me.organization?.id ? <CheckIcon fontSize="small" sx={{ ml: 1 }} /> : null}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            navigate("/organizations/new");
          }}
        >
          <ListItemIcon>
            <AddIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>New organization</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
