// The data provider's calls for Home and the metrics page: the metrics' limits, and what a new
// organization has set up yet (Home's onboarding checklist), each counted by the server.
import type { MetricsLimits } from "../api";
import { call } from "./request";

type Page = { items: { last_used_at?: string | null }[]; pagination: { total_count: number } };

const count = async (url: string) => (await call<Page>("GET", url, { query: { limit: 1 } })).pagination.total_count;

export interface OnboardingState {
  products: number;
  checkoutLinks: number;
  webhookEndpoints: number;
  /** Access tokens that have made a call (the SDK is in use). */
  tokensUsed: number;
}

export const metricsMethods = {
  async getMetricsLimits() {
    return { data: await call<MetricsLimits>("GET", "/v1/metrics/limits") };
  },
  async getOnboarding(): Promise<{ data: OnboardingState }> {
    const tokens = call<Page>("GET", "/v1/organization-access-tokens/", { query: { limit: 100 } });
    const [products, checkoutLinks, webhookEndpoints, used] = await Promise.all([
      count("/v1/products/"),
      count("/v1/checkout-links/"),
      count("/v1/webhooks/endpoints"),
      tokens,
    ]);
    return { data: { products, checkoutLinks, webhookEndpoints, tokensUsed: used.items.filter((t) => t.last_used_at).length } };
  },
};
