import type { ReactNode } from "react";
import { AppBar, Layout as RaLayout, Logout, TitlePortal, UserMenu, useGetIdentity } from "react-admin";
import { Typography } from "@mui/material";
import { Menu } from "./Menu";
import { OrganizationSwitcher } from "./OrganizationSwitcher";
import { AccountMenuItem } from "./AccountMenuItem";
import type { Identity } from "../authProvider";

/** The brand, then the page's title taking the room that is left (the brand gives way on a phone). */
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
