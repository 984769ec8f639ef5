// The seat invitation, one per assignment or resend (the internal event email.seat_invitation,
// written by server/seats/ with the change): the claim link with the seat's token. Read at send
// time; a seat claimed or revoked meanwhile sends nothing.
import type { InternalEvents } from "../../kit/outbox.js";
import { findCustomer } from "../../customers/repository.js";
import { findSeat } from "../../seats/repository.js";
import { inviterOf } from "../../seats/service.js";
import { portalLink } from "../links.js";
import { outboxDedupeKey, type EmailDefinition } from "../models.js";

export const seatInvitation: EmailDefinition = {
  kind: "seat_invitation",
  trigger: {
    on: ["email.seat_invitation"],
    async sends(trx, event) {
      const seat: InternalEvents["email.seat_invitation"] = JSON.parse(event.data);
      const row = await findSeat(trx, event.organization_id, seat.seat_id);
      const holder = row?.customer_id ? await findCustomer(trx, row.customer_id) : undefined;
      if (!row || !holder || row.status !== "pending") return [];
      if (holder.deleted_at) return [];
      const send = { organization_id: event.organization_id, kind: "seat_invitation", recipient: holder.email, customer_id: holder.id };
      return [Object.assign(send, { dedupe_key: outboxDedupeKey(event), data: { seat } })];
    },
  },
  async message(db, send, brand, organization) {
    const row = send.data.seat ? await findSeat(db, organization.id, send.data.seat.seat_id) : undefined;
    if (!row || row.status !== "pending" || !row.invitation_token || !row.email) return null;
    const inviter = await inviterOf(db, row);
    if (!inviter) return null;
    return {
      kind: "seat_invitation",
      brand,
      props: Object.assign(
        { customer_name: null, customer_email: row.email, portal_url: portalLink(organization.slug) },
        {
          product_name: inviter.product,
          inviter: inviter.name,
          claim_url: `${portalLink(organization.slug)}/claim?token=${encodeURIComponent(row.invitation_token)}`,
          expires_at: row.invitation_token_expires_at?.toISOString() ?? null,
        },
      ),
    };
  },
};
