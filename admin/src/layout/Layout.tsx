import type { ReactNode } from "react";
import { AppBar, Layout as RaLayout, TitlePortal } from "react-admin";
import { Box, Typography } from "@mui/material";
import { Menu } from "./Menu";
import { OrganizationSwitcher } from "./OrganizationSwitcher";

function Bar() {
  return (
    <AppBar>
      <Typography component="span" variant="h6" sx={{ mr: 2, fontWeight: 700 }}>
        Borealis
      </Typography>
      <TitlePortal />
      <Box sx={{ flex: 1 }} />
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
