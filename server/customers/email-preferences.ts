// The non-essential emails a customer chooses in the portal: the reminders. Everything else about
// their purchases (receipts, payment failures, …) always goes when the organization sends it.
// The reminders' enqueue asks `wantsEmail` before it queues one.
import { NON_ESSENTIAL_EMAIL_KINDS } from "../../emails/src/index.js";
import type { components } from "../../generated/types.js";
import type { CustomerRow } from "./repository.js";

export type CustomerEmailPreferences = components["schemas"]["CustomerEmailPreferences"];
type NonEssentialKind = keyof CustomerEmailPreferences;

/** Every reminder goes until the customer switches it off. */
export const DEFAULT_CUSTOMER_EMAIL_PREFERENCES: CustomerEmailPreferences = {
  subscription_renewal_reminder: true,
  payment_method_expiration_reminder: true,
};

const NON_ESSENTIAL: readonly NonEssentialKind[] = NON_ESSENTIAL_EMAIL_KINDS;

const isNonEssential = (kind: string): kind is NonEssentialKind => NON_ESSENTIAL.some((k) => k === kind);

/** The customer's preferences: what they chose over the defaults. */
export function emailPreferencesOf(row: Pick<CustomerRow, "email_preferences">): CustomerEmailPreferences {
  return Object.assign({}, DEFAULT_CUSTOMER_EMAIL_PREFERENCES, row.email_preferences);
}

/** The preferences after a change: the reminders given replace the stored ones. */
export function updatedEmailPreferences(
  row: Pick<CustomerRow, "email_preferences">,
  input: Partial<CustomerEmailPreferences>,
): CustomerEmailPreferences {
  const next = emailPreferencesOf(row);
  for (const kind of NON_ESSENTIAL) {
    const value = input[kind];
    if (value !== undefined) next[kind] = value;
  }
  return next;
}

/** Whether the customer receives this kind of email: false only for a reminder they switched off. */
export function wantsEmail(customer: Pick<CustomerRow, "email_preferences">, kind: string): boolean {
  return !isNonEssential(kind) || emailPreferencesOf(customer)[kind];
}
