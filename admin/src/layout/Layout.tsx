import type { ReactNode } from "react";
import { AppBar, Layout as RaLayout, TitlePortal } from "react-admin";
import { Typography } from "@mui/material";
import { Menu } from "./Menu";
import { OrganizationSwitcher } from "./OrganizationSwitcher";

/** The brand, then the page's title taking the room that is left (the brand gives way on a phone). */
function Bar() {
  return (
    <AppBar>
      <Typography component="span" variant="h6" sx={{ mr: 2, fontWeight: 700, display: { xs: "none", sm: "inline" } }}>
        Borealis
      </Typography>
      <TitlePortal sx={{ minWidth: 0, fontSize: { xs: "1.1rem", sm: undefined } }} />
      <OrganizationSwitcher />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout menu={Menu} appBar={Bar}>
      {children}
    </RaLayout>
  );
}
