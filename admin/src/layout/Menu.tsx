// The console's menu, in the product's sections: Home, Catalogue, Customers, Sales, Webhooks,
// Settings. Members see what they may read; settings are for owners and admins.
import { Menu as RaMenu, usePermissions } from "react-admin";
import { Divider, ListSubheader } from "@mui/material";
import DashboardIcon from "@mui/icons-material/Dashboard";
import SettingsIcon from "@mui/icons-material/Settings";

function Section({ title }: { title: string }) {
  return (
    <ListSubheader disableSticky sx={{ lineHeight: "32px", mt: 1, bgcolor: "transparent" }}>
      {title}
    </ListSubheader>
  );
}

export function Menu() {
  const { permissions } = usePermissions<{ role?: string }>();
  const manager = permissions?.role === "owner" || permissions?.role === "admin";
  return (
    <RaMenu>
      <RaMenu.Item to="/" primaryText="Home" leftIcon={<DashboardIcon />} />
      <Section title="Catalogue" />
      <RaMenu.ResourceItem name="products" />
      <RaMenu.ResourceItem name="checkout-links" />
      <RaMenu.ResourceItem name="discounts" />
      <RaMenu.ResourceItem name="benefits" />
      <RaMenu.ResourceItem name="license-keys" />
      <RaMenu.ResourceItem name="custom-fields" />
      <RaMenu.ResourceItem name="meters" />
      <Section title="Customers" />
      <RaMenu.ResourceItem name="customers" />
      <Section title="Sales" />
      <RaMenu.ResourceItem name="orders" />
      <RaMenu.ResourceItem name="subscriptions" />
      <RaMenu.ResourceItem name="checkouts" />
      <RaMenu.ResourceItem name="refunds" />
      <RaMenu.ResourceItem name="payments" />
      <Section title="Developers" />
      <RaMenu.ResourceItem name="webhooks-endpoints" />
      {manager ? (
        <>
          <Divider sx={{ my: 1 }} />
          <Section title="Settings" />
          <RaMenu.Item to="/settings" primaryText="Organization" leftIcon={<SettingsIcon />} />
          <RaMenu.ResourceItem name="test-clocks" />
        </>
      ) : null}
    </RaMenu>
  );
}
