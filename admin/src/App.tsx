// The merchant console: react-admin over the contract. Resources are the contract's merchant
// collections (generated/admin-resources.ts); each folder under resources/ says how its records
// are listed, shown and edited.
import { Admin, Authenticated, CustomRoutes, Resource } from "react-admin";
import { BrowserRouter, Route } from "react-router-dom";
import { dataProvider } from "./dataProvider";
import { authProvider } from "./authProvider";
import { LoginPage } from "./authProvider/LoginPage";
import { Layout } from "./layout/Layout";
import { Home } from "./dashboard/Home";
import { OrganizationSettings } from "./settings/OrganizationSettings";
import { EmailSettings } from "./settings/EmailSettings";
import { Members } from "./settings/Members";
import { AccessTokens } from "./settings/AccessTokens";
import { TaxReport } from "./tax/TaxReport";
import { Dashboards } from "./dashboard/Dashboards";
import { MetricsPage } from "./dashboard/MetricsPage";
import { ResetPasswordPage } from "./authProvider/ResetPasswordPage";
import { AcceptInvitationPage } from "./authProvider/AcceptInvitationPage";
import { AccountPage } from "./account/AccountPage";
import { CreateOrganization } from "./settings/CreateOrganization";
import { theme } from "./theme";
import { i18nProvider } from "./i18n";
import products from "./resources/products";
import checkoutLinks from "./resources/checkout-links";
import discounts from "./resources/discounts";
import benefits from "./resources/benefits";
import customFields from "./resources/custom-fields";
import meters from "./resources/meters";
import customers from "./resources/customers";
import orders from "./resources/orders";
import subscriptions from "./resources/subscriptions";
import checkouts from "./resources/checkouts";
import refunds from "./resources/refunds";
import payments from "./resources/payments";
import disputes from "./resources/disputes";
import licenseKeys from "./resources/license-keys";
import webhooks from "./resources/webhooks";
import oauth2Clients from "./resources/oauth2-clients";
import testClocks from "./resources/test-clocks";
import events from "./resources/events";
import eventTypes from "./resources/event-types";
import customerMeters from "./resources/customer-meters";

function AuthenticatedHome() {
  return (
    <Authenticated>
      <Home />
    </Authenticated>
  );
}

// Real paths under /dashboard/ (the API serves index.html for any of them), not react-admin's default hash URLs.
export function App() {
  return (
    <BrowserRouter basename="/dashboard">
      <Admin
        title="Borealis"
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={LoginPage}
        i18nProvider={i18nProvider}
        layout={Layout}
        dashboard={AuthenticatedHome}
        theme={theme}
        disableTelemetry
      >
        <Resource name="products" {...products} options={{ label: "Products" }} />
        <Resource name="checkout-links" {...checkoutLinks} options={{ label: "Checkout links" }} />
        <Resource name="discounts" {...discounts} options={{ label: "Discounts" }} />
        <Resource name="benefits" {...benefits} options={{ label: "Benefits" }} />
        <Resource name="benefits-grants" options={{ label: "Benefit grants" }} />
        <Resource name="license-keys" {...licenseKeys} options={{ label: "License keys" }} />
        <Resource name="custom-fields" {...customFields} options={{ label: "Custom fields" }} />
        <Resource name="meters" {...meters} options={{ label: "Meters" }} />
        <Resource name="events" {...events} options={{ label: "Events" }} />
        <Resource name="event-types" {...eventTypes} options={{ label: "Event types" }} />
        <Resource name="customer-meters" {...customerMeters} options={{ label: "Customer meters" }} />
        <Resource name="customers" {...customers} options={{ label: "Customers" }} />
        <Resource name="members" options={{ label: "Members" }} />
        <Resource name="orders" {...orders} options={{ label: "Orders" }} />
        <Resource name="subscriptions" {...subscriptions} options={{ label: "Subscriptions" }} />
        <Resource name="checkouts" {...checkouts} options={{ label: "Checkouts" }} />
        <Resource name="refunds" {...refunds} options={{ label: "Refunds" }} />
        <Resource name="payments" {...payments} options={{ label: "Payments" }} />
        <Resource name="disputes" {...disputes} options={{ label: "Disputes" }} />
        <Resource name="webhooks-endpoints" {...webhooks} options={{ label: "Webhooks" }} />
        <Resource name="oauth2-clients" {...oauth2Clients} options={{ label: "OAuth2 applications" }} />
        <Resource name="webhooks-deliveries" options={{ label: "Webhook deliveries" }} />
        <Resource name="test-clocks" {...testClocks} options={{ label: "Test clocks" }} />
        <CustomRoutes>
          <Route
            path="/settings"
            element={
              <Authenticated>
                <OrganizationSettings />
              </Authenticated>
            }
          />
          <Route
            path="/settings/emails"
            element={
              <Authenticated>
                <EmailSettings />
              </Authenticated>
            }
          />
          <Route
            path="/settings/members"
            element={
              <Authenticated>
                <Members />
              </Authenticated>
            }
          />
          <Route
            path="/settings/tokens"
            element={
              <Authenticated>
                <AccessTokens />
              </Authenticated>
            }
          />
          <Route
            path="/account"
            element={
              <Authenticated>
                <AccountPage />
              </Authenticated>
            }
          />
          <Route
            path="/organizations/new"
            element={
              <Authenticated>
                <CreateOrganization another />
              </Authenticated>
            }
          />
          <Route
            path="/metrics"
            element={
              <Authenticated>
                <MetricsPage />
              </Authenticated>
            }
          />
          <Route
            path="/metric-dashboards"
            element={
              <Authenticated>
                <Dashboards />
              </Authenticated>
            }
          />
          <Route
            path="/tax-report"
            element={
              <Authenticated>
                <TaxReport />
              </Authenticated>
            }
          />
        </CustomRoutes>
        {/* where the emails' links land: open without a session */}
        <CustomRoutes noLayout>
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/accept-invitation/:id" element={<AcceptInvitationPage />} />
        </CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
