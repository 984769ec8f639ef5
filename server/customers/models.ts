// The Customer, CustomerState and portal CustomerPortalCustomer wire shapes.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import { iso, isoRequired } from "../kit/time.js";
import { emailPreferencesOf } from "./email-preferences.js";
import type { CustomerRow, GrantedBenefitRow } from "./repository.js";

export type CustomerOut = components["schemas"]["Customer"];
/** The customer inside an order, a subscription or a license key (OrderCustomer, SubscriptionCustomer, LicenseKeyCustomer). */
export type CustomerBaseOut = components["schemas"]["OrderCustomer"];
export type CustomerStateOut = components["schemas"]["CustomerState"];
export type PortalCustomerOut = components["schemas"]["CustomerPortalCustomer"];
type StateSubscription = components["schemas"]["CustomerStateSubscription"];
type StateMeter = components["schemas"]["CustomerStateMeter"];
type TaxIdCheckOut = components["schemas"]["CustomerTaxIdCheck"];

/** Computed from the email, no network: Gravatar answers 404 when it has no picture, and clients fall back to initials. */
export function avatarUrl(email: string): string {
  const hash = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}?d=404`;
}

/** The name on invoices: the billing name when given, else the customer's name. */
export function billingName(row: Pick<CustomerRow, "billing_name" | "name">): string | null {
  return row.billing_name ?? row.name;
}

/** The registry's answer on the customer's tax id; null without a tax id. */
export function toTaxIdCheck(row: CustomerRow): TaxIdCheckOut | null {
  if (row.tax_id === null) return null;
  return {
    status: row.tax_id_check_status ?? "unchecked",
    service: row.tax_id_check_service ?? null,
    name: row.tax_id_check_name ?? null,
    address: row.tax_id_check_address ?? null,
    checked_at: iso(row.tax_id_checked_at ?? null),
  };
}

/** The customer as orders, subscriptions and license keys show it: without the registry's check, the Customer's own. */
export function toCustomerBase(row: CustomerRow): CustomerBaseOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    metadata: row.metadata,
    external_id: row.external_id,
    email: row.email,
    email_verified: row.email_verified,
    type: row.type,
    name: row.name,
    billing_name: billingName(row),
    billing_address: row.billing_address,
    tax_id: row.tax_id,
    organization_id: row.organization_id,
    deleted_at: iso(row.deleted_at),
    first_user_event_at: iso(row.first_user_event_at),
    avatar_url: avatarUrl(row.email),
  };
}

export function toCustomer(row: CustomerRow): CustomerOut {
  return Object.assign(toCustomerBase(row), { tax_id_check: toTaxIdCheck(row) });
}

export function toCustomerState(
  row: CustomerRow,
  state: { subscriptions: StateSubscription[]; grants: GrantedBenefitRow[]; meters: StateMeter[] },
): CustomerStateOut {
  const base = Object.assign(toCustomer(row), {
    active_subscriptions: state.subscriptions,
    granted_benefits: state.grants.map((g) => ({
      id: g.id,
      created_at: isoRequired(g.created_at),
      modified_at: iso(g.modified_at),
      granted_at: isoRequired(g.granted_at),
      benefit_id: g.benefit_id,
      benefit_type: g.benefit_type,
      benefit_metadata: g.benefit_metadata,
      properties: g.properties,
    })),
    active_meters: state.meters,
  });
  // The state's shape by the customer's type (CustomerStateIndividual, CustomerStateTeam).
  return row.type === "team" ? Object.assign(base, { type: "team" as const }) : Object.assign(base, { type: "individual" as const });
}

/** The portal's view of a customer; `defaultPaymentMethodId` is their default saved card, when they have one. */
export function toPortalCustomer(row: CustomerRow, defaultPaymentMethodId: string | null = null): PortalCustomerOut {
  return {
    created_at: isoRequired(row.created_at),
    modified_at: iso(row.modified_at),
    id: row.id,
    email: row.email,
    email_verified: row.email_verified,
    name: row.name,
    billing_name: billingName(row),
    billing_address: row.billing_address,
    tax_id: row.tax_id,
    oauth_accounts: {},
    default_payment_method_id: defaultPaymentMethodId,
    email_preferences: emailPreferencesOf(row),
  };
}
