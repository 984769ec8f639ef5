// Every URL an email carries, built here from the configured public addresses: the customer
// portal's sections (PUBLIC_PORTAL_URL), the console's pages (PUBLIC_APP_URL) and the signed
// invoice download (PUBLIC_API_URL). Templates never build URLs; loaders call these.
import { createHmac, timingSafeEqual } from "node:crypto";
import { apiBaseUrl } from "../checkout-links/models.js";
import { setting } from "../config.js";
import { portalBaseUrl } from "../customer-sessions/models.js";

const slugPath = (slug: string) => encodeURIComponent(slug);

/** The organization's customer portal, or one of its sections. */
export function portalLink(
  slug: string,
  section?: "orders" | "subscriptions" | "benefits" | "payment-methods" | "billing" | "emails",
): string {
  return `${portalBaseUrl()}/${slugPath(slug)}/portal${section ? `/${section}` : ""}`;
}

export const orderPortalLink = (slug: string, orderId: string) => `${portalLink(slug, "orders")}?order=${encodeURIComponent(orderId)}`;
export const subscriptionManageLink = (slug: string, subscriptionId: string) =>
  `${portalLink(slug, "subscriptions")}?subscription=${encodeURIComponent(subscriptionId)}`;
export const updatePaymentMethodLink = (slug: string) => portalLink(slug, "payment-methods");
export const emailPreferencesLink = (slug: string) => portalLink(slug, "emails");

/** The console (PUBLIC_APP_URL, else the API's /dashboard). */
export function consoleLink(path: string): string {
  const base = (setting("PUBLIC_APP_URL") ?? `${apiBaseUrl()}/dashboard`).replace(/\/+$/, "");
  return `${base}/${path.replace(/^\/+/, "")}`;
}

export const consoleOrderLink = (orderId: string) => consoleLink(`orders/${encodeURIComponent(orderId)}/show`);
export const consoleSubscriptionLink = (subscriptionId: string) => consoleLink(`subscriptions/${encodeURIComponent(subscriptionId)}/show`);
export const consoleWebhookEndpointLink = (endpointId: string) => consoleLink(`webhooks-endpoints/${encodeURIComponent(endpointId)}/show`);
export const notificationSettingsLink = () => consoleLink("settings/emails");

/**
 * A link to the order's invoice PDF (served by ./invoice-link.ts) that needs no sign-in: the order id signed with
 * BETTER_AUTH_SECRET (the secret the API and the worker share); null when no secret is set.
 */
export function invoiceLink(orderId: string): string | null {
  const signature = signOrder(orderId);
  return signature && `${apiBaseUrl()}/emails/invoices/${encodeURIComponent(orderId)}?signature=${signature}`;
}

/** A link's parts signed with BETTER_AUTH_SECRET (the secret the API and the worker share); null when no secret is set. */
function signLink(parts: string[]): string | null {
  const secret = setting("BETTER_AUTH_SECRET");
  return secret ? createHmac("sha256", secret).update(parts.join("\n")).digest("base64url") : null;
}

/** Whether `signature` is the signature of the link's parts. */
function linkSignatureValid(parts: string[], signature: unknown): boolean {
  const want = signLink(parts);
  if (typeof signature !== "string" || !want) return false;
  const a = Buffer.from(want);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

const signOrder = (orderId: string) => signLink(["invoice", orderId]);

/** Whether `signature` is the invoice link's signature of the order. */
export const invoiceSignatureValid = (orderId: string, signature: unknown): boolean => linkSignatureValid(["invoice", orderId], signature);

/**
 * A link to a file of a granted downloadables benefit (served by ./invoice-link.ts) that needs no
 * sign-in and does not expire: it works while the grant holds the file; null when no secret is set.
 */
export function benefitFileLink(grantId: string, fileId: string): string | null {
  const signature = signLink(["download", grantId, fileId]);
  return (
    signature && `${apiBaseUrl()}/emails/downloads/${encodeURIComponent(grantId)}/${encodeURIComponent(fileId)}?signature=${signature}`
  );
}

/** Whether `signature` is the download link's signature of the grant's file. */
export const benefitFileSignatureValid = (grantId: string, fileId: string, signature: unknown): boolean =>
  linkSignatureValid(["download", grantId, fileId], signature);
