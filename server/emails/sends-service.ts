// The organization's emails as the API shows them: the list of sends, resending a
// receipt as a new send, and a preview of any kind with sample data in the organization's brand.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { OpBody, OpQuery } from "../../generated/handlers.js";
import type { components } from "../../generated/types.js";
import { isEmailKind, renderEmail, sampleMessage, type EmailKind } from "../../emails/src/index.js";
import type { OrganizationCaller } from "../kit/auth.js";
import { invalid, ResourceNotFound } from "../kit/errors.js";
import { asList, isUuid } from "../kit/ids.js";
import { applySorting, listPage, type Page } from "../kit/pagination.js";
import { iso, isoRequired } from "../kit/time.js";
import { findReadable } from "../organizations/repository.js";
import { brandOf } from "./models.js";
import { lockReadableEmailSend, readableEmailSends, type EmailSendRow } from "./repository.js";
import { enqueueEmails } from "./service.js";

export type EmailSendOut = components["schemas"]["EmailSend"];
export type EmailPreviewOut = components["schemas"]["EmailPreview"];

/** The receipts a merchant may send again; the other kinds are about a moment that has passed. */
export const RESENDABLE_KINDS: readonly string[] = ["order_confirmation", "subscription_cycled"];

function kindOf(row: EmailSendRow): EmailKind {
  if (!isEmailKind(row.kind)) throw new Error(`email send ${row.id} has no known kind (${row.kind})`);
  return row.kind;
}

export function toEmailSend(row: EmailSendRow): EmailSendOut {
  return {
    id: row.id,
    created_at: isoRequired(row.created_at),
    organization_id: row.organization_id,
    kind: kindOf(row),
    recipient: row.recipient,
    customer_id: row.customer_id,
    user_id: row.user_id,
    subject: row.subject,
    message_id: row.message_id,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    sent_at: iso(row.sent_at),
  };
}

export async function listEmailSends(db: Knex, caller: OrganizationCaller, query: OpQuery<"emails:list">): Promise<Page<EmailSendOut>> {
  const q = readableEmailSends(db, caller).select("email_sends.*");
  const customers = asList(query?.customer_id);
  if (customers.length) q.whereIn("email_sends.customer_id", customers.filter(isUuid));
  const kinds = asList(query?.kind);
  if (kinds.length) q.whereIn("email_sends.kind", kinds);
  const statuses = asList(query?.status);
  if (statuses.length) q.whereIn("email_sends.status", statuses);
  applySorting(
    q,
    query?.sorting,
    { created_at: "email_sends.created_at", sent_at: "email_sends.sent_at" },
    ["-created_at"],
    "email_sends.id",
  );
  return listPage(q, query ?? {}, (rows: EmailSendRow[]) => rows.map(toEmailSend));
}

/** Sends a receipt again, to the same recipient, as a new send of its own (`resend:<uuid>`) started after commit. */
export async function resendEmail(db: Knex, caller: OrganizationCaller, id: string): Promise<EmailSendOut> {
  return db.transaction(async (trx) => {
    const original = isUuid(id) ? await lockReadableEmailSend(trx, caller, id) : undefined;
    if (!original) throw new ResourceNotFound("Email not found.");
    if (!RESENDABLE_KINDS.includes(original.kind)) {
      throw invalid(
        ["path", "id"],
        `Only a receipt (${RESENDABLE_KINDS.join(", ")}) is sent again; this email is a ${original.kind}.`,
        "value_error",
        original.kind,
      );
    }
    const [sendId] = await enqueueEmails(trx, [
      {
        organization_id: original.organization_id,
        kind: original.kind,
        recipient: original.recipient,
        customer_id: original.customer_id,
        user_id: original.user_id,
        dedupe_key: `resend:${randomUUID()}`,
        data: original.data,
      },
    ]);
    const created = sendId === undefined ? undefined : await lockReadableEmailSend(trx, caller, sendId);
    if (!created) throw new Error(`the resent email of ${original.id} was not inserted`);
    return toEmailSend(created);
  });
}

/** A kind of email rendered with sample data in the organization's brand, or in a draft colour. */
export async function previewEmail(db: Knex, caller: OrganizationCaller, input: OpBody<"emails:preview">): Promise<EmailPreviewOut> {
  const organization = await findReadable(db, caller, caller.organizationId);
  if (!organization) throw new ResourceNotFound("Organization not found.");
  const brand = brandOf(organization);
  if (input.brand_color) brand.color = input.brand_color;
  return renderEmail(sampleMessage(input.kind, brand));
}
