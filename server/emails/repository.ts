// The email_sends table's statements: the enqueue's insert (one row per logical email, a repeat
// inserts nothing), the send's lock and outcome, and the backstop sweep's list of pending rows.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { BenefitGrantWebhook } from "../benefit-grants/models.js";
import type { InternalEvents } from "../kit/outbox.js";
import type { OrderOut } from "../orders/models.js";
import type { RefundOut } from "../refunds/models.js";
import type { SubscriptionOut } from "../subscriptions/models.js";

/** What a trigger hands the send: the event's object as it was when it happened. */
export interface EmailSendData {
  order?: OrderOut;
  subscription?: SubscriptionOut;
  /** A declined renewal charge (subscription_payment_failed, subscription_past_due). */
  payment_failed?: InternalEvents["email.subscription_payment_failed"];
  /** The product a subscription left (subscription_updated). */
  previous_product?: { id: string; name: string };
  refund?: RefundOut;
  /** A benefit grant as its webhook told it (benefit_granted). */
  grant?: BenefitGrantWebhook;
  /** The endpoint that was disabled (webhook_endpoint_disabled). */
  endpoint?: InternalEvents["email.webhook_endpoint_disabled"];
  /** The renewal a reminder is for (subscription_renewal_reminder). */
  renewal?: { subscription_id: string; renews_at: string };
  /** The expiring card (payment_method_expiration_reminder). */
  card?: { payment_method_id: string; subscription_id: string; exp_month: number; exp_year: number };
  /** The seat whose invitation goes out (seat_invitation). */
  seat?: InternalEvents["email.seat_invitation"];
}

export type EmailSendStatus = "pending" | "sent" | "failed" | "skipped";

export interface EmailSendRow {
  id: string;
  organization_id: string;
  kind: string;
  recipient: string;
  customer_id: string | null;
  user_id: string | null;
  dedupe_key: string;
  /** The trigger's snapshot: the event's data and the ids the kind's loader reads. */
  data: EmailSendData;
  subject: string | null;
  message_id: string;
  status: EmailSendStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** One email to enqueue: who gets what, and what makes it one email (the dedupe key). */
export interface EmailSendInsert {
  organization_id: string;
  kind: string;
  recipient: string;
  customer_id?: string | null;
  user_id?: string | null;
  dedupe_key: string;
  data: EmailSendData;
}

/** The Message-ID of a send: the same on every attempt, so a receiver can tell a repeat. */
export const messageIdOf = (id: string) => `<${id}@borealis>`;

/** Inserts the sends not already there (same organization, kind, dedupe key, recipient); returns the new rows' ids. */
export async function insertEmailSends(trx: Knex.Transaction, sends: EmailSendInsert[]): Promise<string[]> {
  if (sends.length === 0) return [];
  const rows = sends.map((s) => {
    const id = randomUUID();
    return Object.assign({}, s, { id, recipient: s.recipient.toLowerCase(), data: JSON.stringify(s.data), message_id: messageIdOf(id) });
  });
  const inserted: { id: string }[] = await trx("email_sends")
    .insert(rows)
    .onConflict(["organization_id", "kind", "dedupe_key", "recipient"])
    .ignore()
    .returning("id");
  return inserted.map((r) => r.id);
}

/** The send, locked until `trx` ends (the send happens under this lock, so two runs never both send). */
export function lockEmailSend(trx: Knex.Transaction, id: string): Promise<EmailSendRow | undefined> {
  return trx<EmailSendRow>("email_sends").where({ id }).forUpdate().first();
}

export function findEmailSend(db: Knex, id: string): Promise<EmailSendRow | undefined> {
  return db<EmailSendRow>("email_sends").where({ id }).first();
}

/** Marks a pending send sent with the Message-ID the mail server accepted (in the transaction that locked it, or after it was lost). */
export async function markEmailSent(db: Knex, id: string, subject: string, messageId: string): Promise<void> {
  await db("email_sends")
    .where({ id, status: "pending" })
    .update({ status: "sent", subject, message_id: messageId, sent_at: db.fn.now(), attempts: db.raw("attempts + 1"), last_error: null });
}

/** Marks a pending send skipped (nothing to send any more: the trigger's subject is gone, the setting is off). */
export async function markEmailSkipped(trx: Knex.Transaction, id: string, reason: string): Promise<void> {
  await trx("email_sends").where({ id, status: "pending" }).update({ status: "skipped", last_error: reason });
}

/** Notes a failed attempt of a pending send; the row stays pending (Temporal retries it). */
export async function noteEmailAttemptFailed(db: Knex, id: string, error: string): Promise<void> {
  await db("email_sends")
    .where({ id, status: "pending" })
    .update({ attempts: db.raw("attempts + 1"), last_error: error });
}

/** Marks a pending send failed for good (its attempts ran out); a sent one stays sent. */
export async function markEmailFailed(db: Knex, id: string, error: string): Promise<void> {
  await db("email_sends").where({ id, status: "pending" }).update({ status: "failed", last_error: error });
}

/** Pending sends created before `before`, oldest first (the backstop sweep starts their workflows). */
export async function pendingEmailSends(db: Knex, before: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db("email_sends")
    .where("status", "pending")
    .where("created_at", "<=", before)
    .orderBy("created_at")
    .limit(limit)
    .select("id");
  return rows.map((r) => r.id);
}

/** The caller's organization's sends (the API's list and resend). */
export function readableEmailSends(db: Knex, caller: { organizationId: string }): Knex.QueryBuilder {
  return db("email_sends").where("email_sends.organization_id", caller.organizationId);
}

/** One of the caller's organization's sends, locked until `trx` ends. */
export function lockReadableEmailSend(
  trx: Knex.Transaction,
  caller: { organizationId: string },
  id: string,
): Promise<EmailSendRow | undefined> {
  return trx<EmailSendRow>("email_sends").where({ id, organization_id: caller.organizationId }).forUpdate().first();
}
