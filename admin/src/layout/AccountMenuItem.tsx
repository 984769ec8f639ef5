// "My account" in the app bar's user menu (people signed in with a session, not access tokens).
import { forwardRef } from "react";
import { Link } from "react-router-dom";
import { useUserMenu } from "react-admin";
import { ListItemIcon, ListItemText, MenuItem } from "@mui/material";
import PersonIcon from "@mui/icons-material/Person";

export const AccountMenuItem = forwardRef<HTMLAnchorElement>(function AccountMenuItem(props, ref) {
  const menu = useUserMenu();
  return (
    <MenuItem ref={ref} {...props} component={Link} to="/account" onClick={() => menu?.onClose()}>
      <ListItemIcon>
        <PersonIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>My account</ListItemText>
    </MenuItem>
  );
});
