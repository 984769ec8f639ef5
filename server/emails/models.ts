// What an email kind is to the pipeline: the outbox events that trigger it (and whom each one
// sends to), and how one send's message is built at send time. The kinds are listed in
// ./triggers.ts; the brand every message wears is the organization's.
import type { Knex } from "knex";
import type { Brand, EmailKind, EmailMessage } from "../../emails/src/index.js";
import { customerEmailSettings, DEFAULT_NOTIFICATION_SETTINGS } from "../organizations/models.js";
import type { OrganizationRow } from "../organizations/repository.js";
import type { EmailSendInsert, EmailSendRow } from "./repository.js";

export type { EmailSendData } from "./repository.js";

/** An outbox row as the triggers see it: its event's type and data (the webhook body's `data`, JSON text). */
export interface OutboxEvent {
  id: number;
  organization_id: string;
  type: string;
  data: string;
}

export interface EmailTrigger {
  /** The outbox event types it reads. */
  on: readonly string[];
  /** The sends one event makes (none when the setting is off or it does not apply). */
  sends(trx: Knex.Transaction, event: OutboxEvent, organization: OrganizationRow): Promise<EmailSendInsert[]>;
}

export interface EmailDefinition {
  kind: EmailKind;
  trigger?: EmailTrigger;
  /** The message of one send, from its snapshot and current rows; null: nothing to send any more (the send is skipped). */
  message(db: Knex, send: EmailSendRow, brand: Brand, organization: OrganizationRow): Promise<EmailMessage | null>;
}

export { brandOf } from "../organizations/models.js";

/** Whether the organization sends this customer email (its `customer_email_settings`, over the defaults). */
export function customerEmailOn(organization: OrganizationRow, key: keyof OrganizationRow["customer_email_settings"]): boolean {
  return customerEmailSettings(organization)[key] !== false;
}

/** Whether the organization notifies its members of this (`notification_settings`, over the defaults). */
export function notificationOn(organization: OrganizationRow, key: keyof OrganizationRow["notification_settings"]): boolean {
  return Object.assign({}, DEFAULT_NOTIFICATION_SETTINGS, organization.notification_settings)[key] !== false;
}

/** The dedupe key of a send an outbox row triggers: one email per event, kind and recipient. */
export const outboxDedupeKey = (event: OutboxEvent) => `outbox:${event.id}`;
