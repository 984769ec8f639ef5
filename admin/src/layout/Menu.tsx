// The console's menu, in the product's sections: Home, Catalogue, Customers, Usage, Sales, Developers,
// Settings. Members see what they may read; settings are for owners and admins. Each section is
// its own menu list under a heading (a heading inside a menu list is not a menu item).
import type { ReactNode } from "react";
import { Menu as RaMenu, usePermissions, useSidebarState } from "react-admin";
import { Box, Typography } from "@mui/material";
import { credentials } from "../authProvider/credentials";
import DashboardIcon from "@mui/icons-material/Dashboard";
import SettingsIcon from "@mui/icons-material/Settings";
import GroupIcon from "@mui/icons-material/Group";
import KeyIcon from "@mui/icons-material/Key";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import EmailIcon from "@mui/icons-material/Email";
import InsightsIcon from "@mui/icons-material/Insights";
import ShowChartIcon from "@mui/icons-material/ShowChart";

function Section({ title, children }: { title?: string; children: ReactNode }) {
  const [open] = useSidebarState();
  return (
    <Box component="section" aria-label={title}>
      {title && open ? (
        <Typography component="h2" variant="overline" sx={{ display: "block", px: 2, pt: 1, lineHeight: "24px", color: "text.secondary" }}>
          {title}
        </Typography>
      ) : null}
      <RaMenu sx={{ mt: 0, mb: 0 }}>{children}</RaMenu>
    </Box>
  );
}

export function Menu() {
  const { permissions } = usePermissions<{ role?: string }>();
  const manager = permissions?.role === "owner" || permissions?.role === "admin";
  return (
    <Box component="nav" aria-label="Console" sx={{ pb: 2 }}>
      <Section>
        <RaMenu.Item to="/" primaryText="Home" leftIcon={<DashboardIcon />} />
        <RaMenu.Item to="/metrics" primaryText="Metrics" leftIcon={<ShowChartIcon />} />
        <RaMenu.Item to="/metric-dashboards" primaryText="Dashboards" leftIcon={<InsightsIcon />} />
      </Section>
      <Section title="Catalogue">
        <RaMenu.ResourceItem name="products" />
        <RaMenu.ResourceItem name="checkout-links" />
        <RaMenu.ResourceItem name="discounts" />
        <RaMenu.ResourceItem name="benefits" />
        <RaMenu.ResourceItem name="license-keys" />
        <RaMenu.ResourceItem name="custom-fields" />
        <RaMenu.ResourceItem name="meters" />
      </Section>
      <Section title="Customers">
        <RaMenu.ResourceItem name="customers" />
      </Section>
      <Section title="Usage">
        <RaMenu.ResourceItem name="events" />
        <RaMenu.ResourceItem name="event-types" />
        <RaMenu.ResourceItem name="customer-meters" />
      </Section>
      <Section title="Sales">
        <RaMenu.ResourceItem name="orders" />
        <RaMenu.ResourceItem name="subscriptions" />
        <RaMenu.ResourceItem name="checkouts" />
        <RaMenu.ResourceItem name="refunds" />
        <RaMenu.ResourceItem name="payments" />
        <RaMenu.ResourceItem name="disputes" />
        <RaMenu.Item to="/tax-report" primaryText="Tax report" leftIcon={<ReceiptLongIcon />} />
      </Section>
      {/* a member holds no webhook, settings or token scopes: owners and admins see those menus */}
      {manager ? (
        <>
          <Section title="Developers">
            <RaMenu.ResourceItem name="webhooks-endpoints" />
            <RaMenu.Item to="/settings/tokens" primaryText="Access tokens" leftIcon={<KeyIcon />} />
          </Section>
          <Section title="Settings">
            <RaMenu.Item to="/settings" primaryText="Organization" leftIcon={<SettingsIcon />} />
            <RaMenu.Item to="/settings/emails" primaryText="Email" leftIcon={<EmailIcon />} />
            <RaMenu.Item to="/settings/members" primaryText="Members" leftIcon={<GroupIcon />} />
            {/* managed as the signed-in person, not with an access token */}
            {credentials.bearer() ? null : <RaMenu.ResourceItem name="oauth2-clients" />}
            <RaMenu.ResourceItem name="test-clocks" />
          </Section>
        </>
      ) : (
        <Section title="Settings">
          <RaMenu.Item to="/settings/members" primaryText="Members" leftIcon={<GroupIcon />} />
          <RaMenu.ResourceItem name="test-clocks" />
        </Section>
      )}
    </Box>
  );
}
