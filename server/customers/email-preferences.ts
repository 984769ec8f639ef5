// The non-essential emails a customer chooses in the portal (issue 32): the reminders. Everything
// else about their purchases (receipts, payment failures, …) always goes when the organization
// sends it. The pipeline asks `customerWantsEmail` before it queues a customer email.
import type { Knex } from "knex";
import type { components } from "../../generated/types.js";
import { storedEmailPreferences, type CustomerRow } from "./repository.js";

export type CustomerEmailPreferences = components["schemas"]["CustomerEmailPreferences"];
export type OptionalEmailKind = keyof CustomerEmailPreferences;

/** Every reminder goes until the customer switches it off. */
export const DEFAULT_CUSTOMER_EMAIL_PREFERENCES: CustomerEmailPreferences = {
  subscription_renewal_reminder: true,
  payment_method_expiration_reminder: true,
};

const OPTIONAL_KINDS: readonly OptionalEmailKind[] = ["subscription_renewal_reminder", "payment_method_expiration_reminder"];

export function isOptionalEmailKind(kind: string): kind is OptionalEmailKind {
  return OPTIONAL_KINDS.some((k) => k === kind);
}

/** The customer's preferences: what they chose over the defaults. */
export function emailPreferencesOf(row: Pick<CustomerRow, "email_preferences">): CustomerEmailPreferences {
  return Object.assign({}, DEFAULT_CUSTOMER_EMAIL_PREFERENCES, row.email_preferences);
}

/** The preferences after a change: the reminders given replace the stored ones. */
export function updatedEmailPreferences(row: Pick<CustomerRow, "email_preferences">, input: Partial<CustomerEmailPreferences>): CustomerEmailPreferences {
  const next = emailPreferencesOf(row);
  for (const kind of OPTIONAL_KINDS) {
    const value = input[kind];
    if (value !== undefined) next[kind] = value;
  }
  return next;
}

/** Whether the customer receives this kind of email: false only for a reminder they switched off (or a customer that is gone). */
export async function customerWantsEmail(db: Knex, customerId: string, kind: string): Promise<boolean> {
  if (!isOptionalEmailKind(kind)) return true;
  const row = await storedEmailPreferences(db, customerId);
  return row !== undefined && emailPreferencesOf(row)[kind];
}
