// Every URL an email carries, built here from the configured public addresses: the customer
// portal's sections (PUBLIC_PORTAL_URL), the console's pages (PUBLIC_APP_URL) and the signed
// invoice download (PUBLIC_API_URL). Templates never build URLs; loaders call these.
import { createHmac, timingSafeEqual } from "node:crypto";
import { apiBaseUrl } from "../checkout-links/models.js";
import { setting } from "../config.js";
import { portalBaseUrl } from "../customer-sessions/models.js";

const slugPath = (slug: string) => encodeURIComponent(slug);

/** The organization's customer portal, or one of its sections. */
export function portalLink(slug: string, section?: "orders" | "subscriptions" | "benefits" | "payment-methods" | "billing" | "emails"): string {
  return `${portalBaseUrl()}/${slugPath(slug)}/portal${section ? `/${section}` : ""}`;
}

export const orderPortalLink = (slug: string, orderId: string) => `${portalLink(slug, "orders")}?order=${encodeURIComponent(orderId)}`;
export const subscriptionManageLink = (slug: string, subscriptionId: string) => `${portalLink(slug, "subscriptions")}?subscription=${encodeURIComponent(subscriptionId)}`;
export const updatePaymentMethodLink = (slug: string) => portalLink(slug, "payment-methods");
export const emailPreferencesLink = (slug: string) => portalLink(slug, "emails");

/** The console (PUBLIC_APP_URL, else the API's /dashboard). */
export function consoleLink(path: string): string {
  const base = (setting("PUBLIC_APP_URL") ?? `${apiBaseUrl()}/dashboard`).replace(/\/+$/, "");
  return `${base}/${path.replace(/^\/+/, "")}`;
}

export const consoleOrderLink = (orderId: string) => consoleLink(`orders/${encodeURIComponent(orderId)}/show`);
export const consoleSubscriptionLink = (subscriptionId: string) => consoleLink(`subscriptions/${encodeURIComponent(subscriptionId)}/show`);
export const notificationSettingsLink = () => consoleLink("settings");

/** Where an email's invoice link is served (server/emails/invoice-link.ts). */
export const INVOICE_LINK_ROUTE = "/emails/invoices/:orderId";

/**
 * A link to the order's invoice PDF that needs no sign-in: the order id signed with
 * BETTER_AUTH_SECRET (the secret the API and the worker share); null when no secret is set.
 */
export function invoiceLink(orderId: string): string | null {
  const signature = signOrder(orderId);
  return signature && `${apiBaseUrl()}/emails/invoices/${encodeURIComponent(orderId)}?signature=${signature}`;
}

function signOrder(orderId: string): string | null {
  const secret = setting("BETTER_AUTH_SECRET");
  return secret ? createHmac("sha256", secret).update(`invoice\n${orderId}`).digest("base64url") : null;
}

/** Whether `signature` is the invoice link's signature of the order. */
export function invoiceSignatureValid(orderId: string, signature: unknown): boolean {
  const want = signOrder(orderId);
  if (typeof signature !== "string" || !want) return false;
  const a = Buffer.from(want);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}
