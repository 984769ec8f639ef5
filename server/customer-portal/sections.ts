// The customer portal's sections an organization can switch off (customer_portal_settings), and
// the operations each covers. A switched-off section is hidden in the portal and its operations
// answer 403 NotPermitted to a customer session, checked once per request by the router.
import type { Knex } from "knex";
import type { OperationId } from "../../generated/handlers.js";
import type { CustomerCaller } from "../kit/auth.js";
import { NotPermitted } from "../kit/errors.js";
import { portalSettings, type PortalSection } from "../organizations/repository.js";

const SECTION_OF: Partial<Record<OperationId, PortalSection>> = {
  "customer_portal:orders:list": "orders",
  "customer_portal:orders:get": "orders",
  "customer_portal:orders:update": "orders",
  "customer_portal:orders:confirm_retry_payment": "orders",
  "customer_portal:orders:invoice": "orders",
  "customer_portal:orders:generate_invoice": "orders",
  "customer_portal:orders:get_payment_status": "orders",
  "customer_portal:subscriptions:list": "subscriptions",
  "customer_portal:subscriptions:get": "subscriptions",
  "customer_portal:subscriptions:update": "subscriptions",
  "customer_portal:subscriptions:cancel": "subscriptions",
  "customer_portal:subscriptions:preview_update": "subscriptions",
  "customer_portal:benefit-grants:list": "benefits",
  "customer_portal:benefit-grants:get": "benefits",
  "customer_portal:benefit-grants:update": "benefits",
  "customer_portal:downloadables:list": "benefits",
  "customer_portal:license_keys:list": "benefits",
  "customer_portal:license_keys:get": "benefits",
  "customer_portal:customer_meters:list": "usage",
  "customer_portal:customer_meters:get": "usage",
  "customer_portal:customers:list_payment_methods": "payment_methods",
  "customer_portal:customers:add_payment_method": "payment_methods",
  "customer_portal:customers:delete_payment_method": "payment_methods",
  "customer_portal:customers:set_default_payment_method": "payment_methods",
  "customer_portal:customers:confirm_payment_method": "payment_methods",
  // customers:update is checked by what it changes (service.ts): email preferences are always offered.
};

const LABELS: Record<PortalSection, string> = {
  orders: "Orders",
  subscriptions: "Subscriptions",
  benefits: "Benefits",
  usage: "Usage",
  payment_methods: "Payment methods",
  billing_details: "Billing details",
};

/** Throws NotPermitted when the operation belongs to a section the customer's organization switched off. */
export async function requirePortalSection(db: Knex, operationId: OperationId, caller: CustomerCaller): Promise<void> {
  const section = SECTION_OF[operationId];
  if (section) await requireSection(db, section, caller);
}

/** Throws NotPermitted when the customer's organization switched the section off. */
export async function requireSection(db: Knex, section: PortalSection, caller: CustomerCaller): Promise<void> {
  const row = await portalSettings(db, caller.organizationId);
  if (row?.customer_portal_settings?.[section] === false) {
    throw new NotPermitted(`${LABELS[section]} are not available in this organization's customer portal.`);
  }
}
