import type { ReactNode } from "react";
import { AppBar, Layout as RaLayout, Logout, TitlePortal, UserMenu, useGetIdentity } from "react-admin";
import { Box, Typography } from "@mui/material";
import { Menu } from "./Menu";
import { OrganizationSwitcher } from "./OrganizationSwitcher";
import { AccountMenuItem } from "./AccountMenuItem";
import type { Identity } from "../authProvider";

function Bar() {
  const { data } = useGetIdentity();
  const person = !(data as Identity | undefined)?.viaToken;
  return (
    <AppBar
      userMenu={
        <UserMenu>
          {person ? <AccountMenuItem /> : null}
          <Logout />
        </UserMenu>
      }
    >
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
