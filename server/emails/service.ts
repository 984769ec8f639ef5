// The email pipeline: enqueue sends (rows of email_sends, started after commit), map claimed
// outbox rows to sends (in the claim's transaction), and send one (the activity of
// emailSendWorkflow). A send never runs inside a payment's transaction or request: a trigger only
// inserts rows, and the worker sends them.
import type { Knex } from "knex";
import { renderEmail } from "../../emails/src/index.js";
import { logger } from "../kit/logger.js";
import { sendMail } from "../kit/mail.js";
import { outboxEvents } from "../kit/outbox-repository.js";
import { findOrganization, type OrganizationRow } from "../organizations/repository.js";
import { startEmailSendsAfterCommit } from "../workflows-door.js";
import { brandOf } from "./models.js";
import {
  insertEmailSends,
  lockEmailSend,
  markEmailFailed,
  markEmailSent,
  markEmailSkipped,
  noteEmailAttemptFailed,
  type EmailSendInsert,
  type EmailSendStatus,
} from "./repository.js";
import { EMAILS } from "./triggers.js";
import { sleep } from "../kit/time.js";

/** Inserts the sends not already there and starts their workflows once `trx` commits; returns the new rows' ids. */
export async function enqueueEmails(trx: Knex.Transaction, sends: EmailSendInsert[]): Promise<string[]> {
  const ids = await insertEmailSends(trx, sends);
  startEmailSendsAfterCommit(trx, ids);
  return ids;
}

const TRIGGERED = new Set(EMAILS.flatMap((e) => e.trigger?.on ?? []));

/**
 * The sends the claimed outbox rows trigger, inserted in the claim's transaction (so a row is
 * published exactly when its emails are enqueued); returns the new rows' ids for the caller to
 * start after the commit.
 */
export async function emailsForOutbox(trx: Knex.Transaction, rows: { id: number; type: string }[]): Promise<string[]> {
  const ids = rows.filter((r) => TRIGGERED.has(r.type)).map((r) => r.id);
  if (ids.length === 0) return [];
  const sends: EmailSendInsert[] = [];
  // A batch is often many events of one organization (a run of renewals): read each once.
  const organizations = new Map<string, Promise<OrganizationRow | undefined>>();
  for (const event of await outboxEvents(trx, ids)) {
    if (!organizations.has(event.organization_id)) organizations.set(event.organization_id, findOrganization(trx, event.organization_id));
    const organization = await organizations.get(event.organization_id);
    if (!organization) continue;
    for (const { kind, trigger } of EMAILS) {
      if (!trigger?.on.includes(event.type)) continue;
      try {
        // In a savepoint: an event a trigger can't read loses that email (logged), not the batch's webhooks.
        sends.push(...(await trx.transaction((savepoint) => trigger.sends(savepoint, event, organization))));
      } catch (err) {
        logger.error({ err, outboxId: event.id, type: event.type, kind }, "an email trigger failed on this event; that email is not sent");
      }
    }
  }
  return insertEmailSends(trx, sends);
}

/**
 * Sends one email under its row's lock and marks it sent in the same transaction; a send that
 * is not pending returns its status. An SMTP failure notes the attempt and throws (Temporal
 * retries). A transaction lost after the server's 250 (the database restarting) is followed by
 * marking the send sent outside it, tried for a while; only a kill in that window resends, with
 * the same Message-ID.
 */
export async function deliverEmailSend(db: Knex, sendId: string): Promise<EmailSendStatus | "missing"> {
  let accepted: { subject: string; messageId: string } | undefined;
  try {
    return await db.transaction(async (trx) => {
      const send = await lockEmailSend(trx, sendId);
      if (!send) return "missing";
      if (send.status !== "pending") return send.status;
      const definition = EMAILS.find((e) => e.kind === send.kind);
      const organization = await findOrganization(trx, send.organization_id);
      if (!definition || !organization) {
        await markEmailSkipped(trx, send.id, definition ? "the organization is gone" : `no email kind ${send.kind}`);
        return "skipped";
      }
      const message = await definition.message(trx, send, brandOf(organization), organization);
      if (!message) {
        await markEmailSkipped(trx, send.id, "nothing to send any more");
        return "skipped";
      }
      const rendered = await renderEmail(message);
      const mail = await sendMail({
        to: send.recipient,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        messageId: send.message_id,
      });
      accepted = { subject: rendered.subject, messageId: mail.messageId };
      await markEmailSent(trx, send.id, accepted.subject, accepted.messageId);
      return "sent";
    });
  } catch (err) {
    if (accepted && (await markSentAfterAll(db, sendId, accepted))) return "sent";
    await noteEmailAttemptFailed(db, sendId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  }
}

/** Marks a send the mail server accepted sent, retrying for up to `forMs` while the database is unreachable. */
async function markSentAfterAll(
  db: Knex,
  sendId: string,
  accepted: { subject: string; messageId: string },
  forMs = 30_000,
): Promise<boolean> {
  const until = Date.now() + forMs;
  for (;;) {
    try {
      await markEmailSent(db, sendId, accepted.subject, accepted.messageId);
      return true;
    } catch (err) {
      if (Date.now() > until) {
        logger.warn({ err, sendId }, "an accepted email could not be marked sent; its retry sends it again with the same Message-ID");
        return false;
      }
      await sleep(500);
    }
  }
}

/** Marks a send failed for good once its attempts ran out (a sent one stays sent). */
export async function failEmailSend(db: Knex, sendId: string, error: string): Promise<void> {
  await markEmailFailed(db, sendId, error);
}
