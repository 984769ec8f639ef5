// The data provider's calls for the organization's own settings, access tokens, emails, metrics
// (and its saved dashboards) and tax report: the screens outside the resources reach the server
// through these.
import type {
  EmailPreview,
  MetricDashboardSchema,
  MetricsResponse,
  Organization,
  OrganizationAccessToken,
  OrganizationAccessTokenCreateResponse,
  OrganizationNotificationPreferences,
  TaxReport,
} from "../api";
import { call, type Query } from "./request";

/** The organization the caller acts for (the first the list answers), or null. */
export async function currentOrganization(): Promise<Organization | null> {
  const page = await call<{ items: Organization[] }>("GET", "/v1/organizations/", { query: { limit: 1 } });
  return page.items[0] ?? null;
}

export const organizationMethods = {
  async getOrganization() {
    return { data: await currentOrganization() };
  },
  async updateOrganization(id: string, body: unknown) {
    return { data: await call<Organization>("PATCH", "/v1/organizations/{id}", { path: { id }, body }) };
  },
  async createOrganization(body: { name: string; slug: string }) {
    return { data: await call<Organization>("POST", "/v1/organizations/", { body }) };
  },
  async getNotificationPreferences(organizationId: string) {
    const path = { id: organizationId };
    return { data: await call<OrganizationNotificationPreferences>("GET", "/v1/organizations/{id}/notification-preferences", { path }) };
  },
  async updateNotificationPreferences(organizationId: string, body: Partial<OrganizationNotificationPreferences>) {
    const path = { id: organizationId };
    return {
      data: await call<OrganizationNotificationPreferences>("PATCH", "/v1/organizations/{id}/notification-preferences", { path, body }),
    };
  },
  async previewEmail(body: Record<string, unknown>) {
    return { data: await call<EmailPreview>("POST", "/v1/emails/preview", { body }) };
  },
  /** The organization's access tokens, the newest first. */
  async getAccessTokens() {
    const query = { limit: 100, sorting: "-created_at" };
    return { data: (await call<{ items: OrganizationAccessToken[] }>("GET", "/v1/organization-access-tokens/", { query })).items };
  },
  async createAccessToken(body: Record<string, unknown>) {
    return { data: await call<OrganizationAccessTokenCreateResponse>("POST", "/v1/organization-access-tokens/", { body }) };
  },
  async revokeAccessToken(id: string) {
    return { data: await call<unknown>("DELETE", "/v1/organization-access-tokens/{id}", { path: { id } }) };
  },
  async getMetrics(query: Query) {
    return { data: await call<MetricsResponse>("GET", "/v1/metrics/", { query }) };
  },
  async listMetricDashboards() {
    return { data: await call<MetricDashboardSchema[]>("GET", "/v1/metrics/dashboards") };
  },
  async createMetricDashboard(body: { name: string; metrics: string[] }) {
    return { data: await call<MetricDashboardSchema>("POST", "/v1/metrics/dashboards", { body }) };
  },
  async deleteMetricDashboard(id: string) {
    return { data: await call<unknown>("DELETE", "/v1/metrics/dashboards/{id}", { path: { id } }) };
  },
  async getTaxReport(query: Query) {
    return { data: await call<TaxReport>("GET", "/v1/tax/report", { query }) };
  },
};
